-- The compact row history (migration history_batches; docs/decisions/0022), faster to find and
-- to write, and in its statement's order. Still switched off: batch_from_rows stays as it is.
--
-- A batch's hashes are kept ascending and in line: intarray's operators sort a copy of an array
-- before they compare, and for a batch's 1,000 hashes in the order of its rows that cost a row's
-- history about 65 µs per batch it rechecked (13 of its 31 ms beside 5,000 batches); sorted, the
-- recheck costs next to nothing. Operations are kept compressed in line (a few hundred bytes)
-- instead of out of line, for the same read.
ALTER TABLE "tablelock"."row_change_batch"
  ALTER COLUMN "hashes" SET STORAGE MAIN, ALTER COLUMN "operations" SET STORAGE EXTENDED;
-- Batches written before (by an install that switched them on early): sorted too.
UPDATE "tablelock"."row_change_batch" SET "hashes" = "tablelock"."sort"("hashes");
-- The signatures' index made again: Postgres gave its column the storage just set on the table's
-- column, and with its entries compressed it found no batch (intarray reads a signature as it
-- is, never decompressed). Made anew, its column has its key type's storage again.
DROP INDEX "tablelock"."row_change_batch_hashes_idx";
CREATE INDEX "row_change_batch_hashes_idx" ON "tablelock"."row_change_batch"
  USING gist ("hashes" "tablelock"."gist__intbig_ops" (siglen = 2024));

-- One row's changes in both forms, without a batch row's images: as before, with the key's
-- hash computed once and compared with the batches' sorted hashes.
CREATE OR REPLACE FUNCTION "tablelock"."row_change_refs_of_row"(table_name text, row_key jsonb)
RETURNS TABLE (id bigint, change_set_id bigint, row_key jsonb, operation text, old_values jsonb,
               new_values jsonb, batch_id bigint, position_in_batch integer)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT rc.id, rc.change_set_id, rc.row_key, rc.operation, rc.old_values, rc.new_values,
         NULL::bigint, NULL::integer
  FROM "tablelock"."row_change" AS rc
  WHERE rc.table_name = $1 AND rc.row_key = $2
  UNION ALL
  SELECT b.first_id + p.i - 1, b.change_set_id, $2, b.operations[p.i], NULL::jsonb, NULL::jsonb,
         b.id, p.i
  FROM (SELECT k.key_text, "tablelock"."history_key_hash"($1, k.key_text) AS hash
        FROM (SELECT "tablelock"."history_key_text"($2) AS key_text) AS k) AS k
  JOIN "tablelock"."row_change_batch" AS b
    ON b.hashes OPERATOR("tablelock".@>) ARRAY[k.hash] AND b.table_name = $1
  CROSS JOIN LATERAL (SELECT array_position(b.keys, k.key_text) AS i) AS p
  WHERE p.i IS NOT NULL
$$;

-- The guard's statement that records a statement's rows as batches. As before, but:
-- - its hashes sorted (intarray's sort: 8 ms per 100,000 rows);
-- - an insert's or a delete's counts taken from its batches' row counts (an update's rows may be
--   any of the three, and are still counted by operation);
-- - each batch's id taken by its first row as the rows come (nextval where a row's place is a
--   multiple of 1,000), where it was taken as the hash aggregate gave the batches out: a
--   statement's rows read by id (a change's pages, a webhook's rows) came in another order than
--   the statement's, unlike the per-row form's.
CREATE OR REPLACE FUNCTION "tablelock"."guard_batch_sql"(operation text, key_text text, texts text)
RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT format($sql$
    WITH pairs AS (%s),
    recorded AS (
      INSERT INTO "tablelock"."row_change_batch"
        (change_set_id, table_name, hashes, first_id, last_id, row_count, keys, key_names,
         operations, names, old_rows, new_rows)
      SELECT $1, $2, hashes, id, id + row_count - 1, row_count, keys, $5, operations, $3,
             old_rows, new_rows
      FROM (SELECT count(*)::int AS row_count, min(id) AS id, array_agg(k) AS keys,
                   "tablelock"."sort"(array_agg("tablelock"."history_key_hash"($2, k))) AS hashes,
                   array_agg(op) AS operations, %s AS old_rows, %s AS new_rows
            FROM (SELECT k, ov, nv, place / 1000 AS chunk,
                         CASE WHEN place %% 1000 = 0
                              THEN nextval('"tablelock"."row_change_id_seq"'::regclass) END AS id,
                         CASE WHEN ov IS NULL THEN 'insert' WHEN nv IS NULL THEN 'delete'
                              ELSE 'update' END AS op
                  FROM (SELECT pairs.*, row_number() OVER () - 1 AS place FROM pairs) AS numbered) AS p
            GROUP BY chunk) AS batch
      RETURNING row_count, operations)
    SELECT %s FROM recorded$sql$,
    CASE operation
      WHEN 'INSERT' THEN format(
        'SELECT %s AS k, NULL::text[] AS ov, %s AS nv FROM new_rows AS r', key_text, texts)
      WHEN 'DELETE' THEN format(
        'SELECT %s AS k, %s AS ov, NULL::text[] AS nv FROM old_rows AS r', key_text, texts)
      ELSE format(
        'SELECT coalesce(n.k, o.k) AS k, o.v AS ov, n.v AS nv '
        'FROM (SELECT %1$s AS k, %2$s AS v FROM new_rows AS r) AS n '
        'FULL JOIN (SELECT %1$s AS k, %2$s AS v FROM old_rows AS r) AS o ON o.k = n.k '
        'WHERE o.v IS DISTINCT FROM n.v', key_text, texts)
    END,
    CASE operation WHEN 'INSERT' THEN $q$'{}'::text[]$q$ WHEN 'DELETE' THEN 'array_agg(ov)'
      ELSE $q$CASE WHEN bool_or(ov IS NOT NULL) THEN array_agg(coalesce(ov, $4)) ELSE '{}' END$q$ END,
    CASE operation WHEN 'DELETE' THEN $q$'{}'::text[]$q$ WHEN 'INSERT' THEN 'array_agg(nv)'
      ELSE $q$CASE WHEN bool_or(nv IS NOT NULL) THEN array_agg(coalesce(nv, $4)) ELSE '{}' END$q$ END,
    -- The counts: an update's rows may be any of the three (its pairs), the others' one.
    CASE operation
      WHEN 'INSERT' THEN 'coalesce(sum(row_count), 0), 0, 0'
      WHEN 'DELETE' THEN '0, 0, coalesce(sum(row_count), 0)'
      ELSE $q$coalesce(sum(cardinality(array_positions(operations, 'insert'))), 0),
              coalesce(sum(cardinality(array_positions(operations, 'update'))), 0),
              coalesce(sum(cardinality(array_positions(operations, 'delete'))), 0)$q$ END)
$$;

-- As before, but the batch statement gets at least 16 MB of work_mem: its aggregate holds the
-- whole statement's arrays until it ends, and under Postgres's default (4 MB) 100,000 rows of four
-- columns spilled to disk (0.20 s instead of 0.17 s). The caller's setting is put back after it.
CREATE OR REPLACE FUNCTION "tablelock"."guard_write"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  change_set_id bigint := "tablelock"."guard_change_set"(TG_TABLE_NAME, TG_ARGV[0]);
  shape record;
  -- Counted into variables, not a record: a record's fields would take their types from the
  -- statement that filled it, and the plan of the UPDATE below would be refused when a trigger's
  -- first statement was recorded in the other form (bigint against integer).
  inserted bigint;
  updated bigint;
  deleted bigint;
  scope_column text;
  touched text[];
  batch_from integer;
  statement_rows bigint := 0;
  row_array record;
  batched boolean := false;
  caller_work_mem text;
BEGIN
  SELECT * INTO shape FROM "tablelock"."guard_row_json"(TG_RELID);
  SELECT hc.batch_from_rows INTO batch_from FROM "tablelock"."history_capture" AS hc;
  IF batch_from IS NOT NULL THEN
    EXECUTE CASE TG_OP WHEN 'DELETE' THEN 'SELECT count(*) FROM old_rows'
                       ELSE 'SELECT count(*) FROM new_rows' END
      INTO statement_rows;
    IF statement_rows >= batch_from THEN
      SELECT * INTO row_array FROM "tablelock"."guard_row_array"(TG_RELID);
      batched := row_array.keyed;
    END IF;
  END IF;
  IF batched THEN
    -- The batch statement holds a statement's rows in its aggregate's memory at once: under
    -- Postgres's default work_mem (4 MB) 100,000 rows of four columns spilled to disk (0.20 s
    -- instead of 0.17 s). At least 16 MB for it, then the caller's setting again.
    caller_work_mem := current_setting('work_mem');
    IF pg_size_bytes(caller_work_mem) < pg_size_bytes('16MB') THEN
      PERFORM set_config('work_mem', '16MB', true);
    END IF;
    EXECUTE "tablelock"."guard_batch_sql"(TG_OP, row_array.key_text, row_array.texts)
      INTO inserted, updated, deleted
      USING change_set_id, TG_TABLE_NAME, row_array.names,
            array_fill(NULL::text, ARRAY[cardinality(row_array.names)]), row_array.key_names;
    PERFORM set_config('work_mem', caller_work_mem, true);
  ELSIF TG_OP = 'INSERT' THEN
    EXECUTE format($sql$
      WITH recorded AS (
        INSERT INTO "tablelock"."row_change" (change_set_id, table_name, row_key, operation, new_values)
        SELECT $1, $2, %s, 'insert', %s FROM new_rows AS r RETURNING 1)
      SELECT count(*) AS inserted, 0 AS updated, 0 AS deleted FROM recorded$sql$, shape.key, shape.whole)
      INTO inserted, updated, deleted USING change_set_id, TG_TABLE_NAME;
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE format($sql$
      WITH recorded AS (
        INSERT INTO "tablelock"."row_change" (change_set_id, table_name, row_key, operation, old_values)
        SELECT $1, $2, %s, 'delete', %s FROM old_rows AS r RETURNING 1)
      SELECT 0 AS inserted, 0 AS updated, count(*) AS deleted FROM recorded$sql$, shape.key, shape.whole)
      INTO inserted, updated, deleted USING change_set_id, TG_TABLE_NAME;
  ELSE
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
      ),
      recorded AS (
        INSERT INTO "tablelock"."row_change"
          (change_set_id, table_name, row_key, operation, old_values, new_values)
        SELECT $1, $2, k, operation, old_values, new_values FROM changes RETURNING operation)
      SELECT count(*) FILTER (WHERE operation = 'insert') AS inserted,
             count(*) FILTER (WHERE operation = 'update') AS updated,
             count(*) FILTER (WHERE operation = 'delete') AS deleted
      FROM recorded$sql$, shape.key, shape.whole)
      INTO inserted, updated, deleted USING change_set_id, TG_TABLE_NAME;
  END IF;
  UPDATE "tablelock"."change_set"
  SET rows_inserted = rows_inserted + inserted, rows_updated = rows_updated + updated,
      rows_deleted = rows_deleted + deleted, counts_pending = true
  WHERE id = change_set_id
    AND NOT (counts_pending AND inserted + updated + deleted = 0);
  -- A write to a table with row scopes: the values of its row-lock column it wrote, judged by
  -- fence_row_scopes (the transition tables are seen only here).
  IF EXISTS (SELECT 1 FROM "tablelock"."row_lock" AS rl WHERE rl.table_name = TG_TABLE_NAME) THEN
    scope_column := "tablelock"."row_lock_column"(TG_RELID, TG_TABLE_NAME);
    EXECUTE format(CASE TG_OP
      WHEN 'INSERT' THEN 'SELECT array_agg(DISTINCT r.%1$I::text) FROM new_rows AS r'
      WHEN 'DELETE' THEN 'SELECT array_agg(DISTINCT r.%1$I::text) FROM old_rows AS r'
      ELSE 'SELECT array_agg(DISTINCT v) FROM (SELECT r.%1$I::text FROM new_rows AS r UNION ALL '
           'SELECT r.%1$I::text FROM old_rows AS r) AS w(v)' END, scope_column)
      INTO touched;
    PERFORM "tablelock"."fence_row_scopes"(change_set_id, TG_TABLE_NAME, TG_ARGV[0], scope_column,
                                           touched);
  END IF;
  RETURN NULL;
END;
$$;
