-- The row images before migration 20261230030000_history_images_from_arrays, for
-- guard/rowImages.test.ts: guard_row_json exactly as migration 20261127410000_write_guard_functions
-- made it (jsonb_build_object, 50 columns at a time), as a function of the session's own.

CREATE FUNCTION pg_temp.guard_row_json_before(relid oid, OUT whole text, OUT key text)
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  pairs text[];
  key_pairs text[];
BEGIN
  SELECT array_agg(format('%L, r.%I::text', a.attname, a.attname) ORDER BY a.attnum),
         array_agg(format('%L, r.%I::text', a.attname, a.attname) ORDER BY a.attnum)
           FILTER (WHERE a.attnum = ANY (i.indkey))
    INTO pairs, key_pairs
  FROM pg_attribute AS a
  LEFT JOIN pg_index AS i ON i.indrelid = a.attrelid AND i.indisprimary
  WHERE a.attrelid = relid AND a.attnum > 0 AND NOT a.attisdropped;
  whole := "tablelock"."guard_json_object"(pairs);
  key := CASE WHEN key_pairs IS NULL THEN whole ELSE "tablelock"."guard_json_object"(key_pairs) END;
END;
$$;
