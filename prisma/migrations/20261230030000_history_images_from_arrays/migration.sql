-- History at bulk speed (issue 45, outcome 1; docs/decisions/0022): the row images the guard
-- records are built from two arrays, not from jsonb_build_object.
--
-- jsonb_build_object takes its arguments as "any" and works out each one's type again for every
-- row: building the key and the whole row of 100,000 imported rows of four columns took about
-- 0.45 s of the 1.25 s the guard's INSERT … SELECT into row_change took (EXPLAIN ANALYZE, the
-- trigger's statement over the same rows). jsonb_object(names, values) over two text arrays
-- builds the same jsonb (the same text values, NULL as JSON null, keys in jsonb's order) in
-- about 0.2 s. The arrays take any number of columns, so wide rows are no longer built 50
-- columns at a time (guard_json_object stays, unused by the guard). Same images, same callers:
-- guard_write and guard_truncate build their SQL from what this returns.
CREATE OR REPLACE FUNCTION "tablelock"."guard_row_json"(relid oid, OUT whole text, OUT key text)
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  names text;
  texts text;
  key_names text;
  key_texts text;
BEGIN
  SELECT string_agg(format('%L', a.attname), ', ' ORDER BY a.attnum),
         string_agg(format('r.%I::text', a.attname), ', ' ORDER BY a.attnum),
         string_agg(format('%L', a.attname), ', ' ORDER BY a.attnum)
           FILTER (WHERE a.attnum = ANY (i.indkey)),
         string_agg(format('r.%I::text', a.attname), ', ' ORDER BY a.attnum)
           FILTER (WHERE a.attnum = ANY (i.indkey))
    INTO names, texts, key_names, key_texts
  FROM pg_attribute AS a
  LEFT JOIN pg_index AS i ON i.indrelid = a.attrelid AND i.indisprimary
  WHERE a.attrelid = relid AND a.attnum > 0 AND NOT a.attisdropped;
  whole := format('jsonb_object(ARRAY[%s]::text[], ARRAY[%s]::text[])', names, texts);
  key := CASE WHEN key_names IS NULL THEN whole
              ELSE format('jsonb_object(ARRAY[%s]::text[], ARRAY[%s]::text[])', key_names, key_texts)
         END;
END;
$$;
