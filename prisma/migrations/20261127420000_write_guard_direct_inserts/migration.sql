-- The write guard records inserts and deletes straight from their transition table: only an
-- update needs its old and new rows paired. An import of new rows took 2.5 times as long with
-- the guard at RECORD as without it (10,000 rows, `pnpm --filter @tablelock/bench bench:guard`).
CREATE OR REPLACE FUNCTION "tablelock"."guard_write"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  change_set_id bigint := "tablelock"."guard_change_set"(TG_TABLE_NAME, TG_ARGV[0]);
  shape record;
  counts record;
  written int;
BEGIN
  SELECT * INTO shape FROM "tablelock"."guard_row_json"(TG_RELID);
  IF TG_OP = 'INSERT' THEN
    EXECUTE format($sql$
      INSERT INTO "tablelock"."row_change" (change_set_id, table_name, row_key, operation, new_values)
      SELECT $1, $2, %s, 'insert', %s FROM new_rows AS r$sql$, shape.key, shape.whole)
      USING change_set_id, TG_TABLE_NAME;
    GET DIAGNOSTICS written = ROW_COUNT;
    UPDATE "tablelock"."change_set" SET rows_inserted = rows_inserted + written
    WHERE id = change_set_id;
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    EXECUTE format($sql$
      INSERT INTO "tablelock"."row_change" (change_set_id, table_name, row_key, operation, old_values)
      SELECT $1, $2, %s, 'delete', %s FROM old_rows AS r$sql$, shape.key, shape.whole)
      USING change_set_id, TG_TABLE_NAME;
    GET DIAGNOSTICS written = ROW_COUNT;
    UPDATE "tablelock"."change_set" SET rows_deleted = rows_deleted + written
    WHERE id = change_set_id;
    RETURN NULL;
  END IF;
  EXECUTE format($sql$
    WITH n AS (SELECT %1$s AS k, %2$s AS v FROM new_rows AS r),
    o AS (SELECT %1$s AS k, %2$s AS v FROM old_rows AS r),
    pairs AS (SELECT coalesce(n.k, o.k) AS k, o.v AS ov, n.v AS nv FROM n FULL JOIN o ON o.k = n.k),
    changes AS (
      SELECT k, 'insert' AS operation, NULL::jsonb AS old_values, nv AS new_values
      FROM pairs WHERE ov IS NULL
      UNION ALL
      SELECT k, 'delete', ov, NULL FROM pairs WHERE nv IS NULL
      UNION ALL
      SELECT k, 'update', d.old_values, d.new_values
      FROM pairs CROSS JOIN LATERAL (
        SELECT jsonb_object_agg(e.key, pairs.ov -> e.key) AS old_values,
               jsonb_object_agg(e.key, e.value) AS new_values
        FROM jsonb_each(pairs.nv) AS e WHERE e.value IS DISTINCT FROM pairs.ov -> e.key) AS d
      WHERE pairs.ov IS NOT NULL AND pairs.nv IS NOT NULL AND d.new_values IS NOT NULL
    ), written AS (
      INSERT INTO "tablelock"."row_change"
        (change_set_id, table_name, row_key, operation, old_values, new_values)
      SELECT $1, $2, k, operation, old_values, new_values FROM changes
      RETURNING operation
    )
    SELECT count(*) FILTER (WHERE operation = 'insert') AS inserted,
           count(*) FILTER (WHERE operation = 'update') AS updated,
           count(*) FILTER (WHERE operation = 'delete') AS deleted
    FROM written$sql$, shape.key, shape.whole)
    INTO counts USING change_set_id, TG_TABLE_NAME;
  UPDATE "tablelock"."change_set"
  SET rows_inserted = rows_inserted + counts.inserted, rows_updated = rows_updated + counts.updated,
      rows_deleted = rows_deleted + counts.deleted
  WHERE id = change_set_id;
  RETURN NULL;
END;
$$;
