-- History at bulk speed (issue 45, outcome 1; docs/decisions/0022): the compact form of the row
-- history, and its readers. Expand only: nothing writes the compact form until
-- tablelock.history_capture.batch_from_rows is set (NULL here); a release after this one sets
-- it, once every running release reads both forms.
--
-- A statement of the write guard that changes at least batch_from_rows rows of a table with a
-- primary key records them as batches of up to 1,000 rows (row_change_batch) instead of one
-- row_change per row: the rows' keys as text, their operations, and their images as a rows ×
-- columns text array under the column names written once. The jsonb images are built only when
-- read, by the functions below, and read as row_change's: the same key, operation, and old → new
-- values (an update names only its changed columns; an update that changes nothing is not
-- recorded).
--
-- A batch is found by the hashes of its keys (CRC-32C of the table's name and the key: a fixed
-- algorithm, the same on every Postgres and platform) in a GiST index of signatures (intarray's
-- gist__intbig_ops: a bit per hash, 2,024 bytes a batch): one index entry per batch, not per
-- row, and a row's history reads only the batches whose signature has its bit (about 5% others,
-- dropped by the recheck). Found by a range of keys instead, a batch must hold keys next to each
-- other: sorting 100,000 keys with their images cost about 0.12 s, half of what the budget
-- leaves, and a statement's ranges cover its whole span of keys anyway (text order scatters
-- numbers), so that a row's history read every bulk statement of the table: 0.3–1 s beside
-- 10,000 of them. A statement's rows are cut into batches in the order they come.
--
-- A batch's rows take their ids from row_change's own identity, one value per batch: the
-- identity now steps by 1,000, and a batch of n rows (n ≤ 1,000) takes the n ids from its value
-- on. Both forms share one order, a batch's ids are contiguous and no two batches' overlap, and
-- a row changed in a later statement still has a larger id. (A row change written one by one
-- takes one value as before, 1,000 above the last.)

ALTER TABLE "tablelock"."row_change" ALTER COLUMN "id" SET INCREMENT BY 1000;

-- A trusted extension of Postgres's own contrib: the database's owner may create it.
CREATE EXTENSION IF NOT EXISTS "intarray" SCHEMA "tablelock";

CREATE TABLE "tablelock"."history_capture" (
    "id" BOOLEAN NOT NULL DEFAULT true,
    "batch_from_rows" INTEGER,

    CONSTRAINT "history_capture_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "history_capture_one_row" CHECK ("id"),
    CONSTRAINT "history_capture_batch_from_rows" CHECK ("batch_from_rows" > 0)
);
INSERT INTO "tablelock"."history_capture" ("id", "batch_from_rows") VALUES (true, NULL);

CREATE TABLE "tablelock"."row_change_batch" (
    "id" BIGINT GENERATED ALWAYS AS IDENTITY,
    "change_set_id" BIGINT NOT NULL,
    "table_name" TEXT NOT NULL,
    -- Each row's key hash (history_key_hash), in the order of the other arrays.
    "hashes" INTEGER[] NOT NULL,
    -- Its rows' row change ids: first_id, first_id + 1, … in the order of its arrays.
    "first_id" BIGINT NOT NULL,
    "last_id" BIGINT NOT NULL,
    "row_count" INTEGER NOT NULL,
    -- Each row's key as text (history_key_text), and the key's column names in jsonb's order.
    "keys" TEXT[] NOT NULL,
    "key_names" TEXT[] NOT NULL,
    "operations" TEXT[] NOT NULL,
    "names" TEXT[] NOT NULL,
    -- Whole rows, one per key, NULLs where the operation has no such image; empty when no row
    -- of the batch has one (an insert's old rows).
    "old_rows" TEXT[] NOT NULL,
    "new_rows" TEXT[] NOT NULL,

    CONSTRAINT "row_change_batch_pkey" PRIMARY KEY ("id")
);
-- Stored out of line, uncompressed: pglz cost about 0.13 s per 100,000 rows recorded, and this
-- Postgres has no lz4.
ALTER TABLE "tablelock"."row_change_batch"
  ALTER COLUMN "keys" SET STORAGE EXTERNAL, ALTER COLUMN "operations" SET STORAGE EXTERNAL,
  ALTER COLUMN "old_rows" SET STORAGE EXTERNAL, ALTER COLUMN "new_rows" SET STORAGE EXTERNAL;
CREATE INDEX "row_change_batch_hashes_idx" ON "tablelock"."row_change_batch"
  USING gist ("hashes" "tablelock"."gist__intbig_ops" (siglen = 2024));
CREATE INDEX "row_change_batch_change_set_id_first_id_idx"
  ON "tablelock"."row_change_batch"("change_set_id", "first_id");

-- The change set of a batch is checked as a row change's is (migration
-- history_change_set_checked_per_statement), and a change set is not deleted or truncated
-- while batches name it.
CREATE TRIGGER "row_change_batch_change_set_inserted" AFTER INSERT ON "tablelock"."row_change_batch"
  REFERENCING NEW TABLE AS new_changes
  FOR EACH STATEMENT EXECUTE FUNCTION "tablelock"."check_row_change_sets"();
CREATE TRIGGER "row_change_batch_change_set_updated" AFTER UPDATE ON "tablelock"."row_change_batch"
  REFERENCING NEW TABLE AS new_changes
  FOR EACH STATEMENT EXECUTE FUNCTION "tablelock"."check_row_change_sets"();

CREATE OR REPLACE FUNCTION "tablelock"."check_change_sets_unreferenced"() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  referenced bigint;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    SELECT c.change_set_id INTO referenced
    FROM (SELECT rc.change_set_id FROM "tablelock"."row_change" AS rc
          UNION ALL SELECT b.change_set_id FROM "tablelock"."row_change_batch" AS b) AS c
    LIMIT 1;
  ELSE
    SELECT o.id INTO referenced FROM old_sets AS o
    WHERE EXISTS (SELECT 1 FROM "tablelock"."row_change" AS rc WHERE rc.change_set_id = o.id)
       OR EXISTS (SELECT 1 FROM "tablelock"."row_change_batch" AS b WHERE b.change_set_id = o.id)
    ORDER BY o.id LIMIT 1;
  END IF;
  IF found THEN
    RAISE EXCEPTION 'tablelock: change set % still has row changes.', referenced
      USING ERRCODE = 'foreign_key_violation', TABLE = 'change_set',
            HINT = 'Delete its row changes first (as purgeHistory does), or truncate both tables together.';
  END IF;
  RETURN NULL;
END;
$$;

-- Keys. A key as text: a one-column key its value, a longer one the array of its values, in
-- jsonb's order of the column names (shorter names first, then bytewise), which the guard
-- writes them in too (guard_row_array).
CREATE FUNCTION "tablelock"."history_key_text"(row_key jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (SELECT CASE WHEN count(*) = 1 THEN min(e.value) ELSE array_agg(e.value ORDER BY e.ord)::text END
        FROM jsonb_each_text(row_key) WITH ORDINALITY AS e(name, value, ord));

-- The row_key of a batch's key.
CREATE FUNCTION "tablelock"."history_key"(key_names text[], key_text text) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN cardinality(key_names) = 1 THEN jsonb_object(key_names, ARRAY[key_text])
            ELSE jsonb_object(key_names, key_text::text[]) END;

-- STABLE as convert_to is (so that the planner inlines it: an IMMUTABLE function calling a STABLE
-- one is called row by row instead, which tripled the guard's cost).
CREATE FUNCTION "tablelock"."history_key_hash"(table_name text, key_text text) RETURNS integer
LANGUAGE sql STABLE PARALLEL SAFE
RETURN (crc32c(convert_to(table_name || chr(31) || key_text, 'UTF8')) - 2147483648)::integer;

-- Reading: what a batch's row says, as row_change says it. Without a search_path of their own,
-- so that the planner inlines them into the caller's query: tablelock's names are qualified,
-- and Postgres's own resolve in pg_catalog, which is searched first.

-- Row i of a rows × columns array, as a one-dimensional array.
CREATE FUNCTION "tablelock"."history_row"(rows text[], i integer) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN ARRAY(SELECT unnest(rows[i:i][:]));

-- An update's images: the columns whose text differs, old and new (row_change's old_values and
-- new_values; jsonb_object_agg over text gives JSON strings and nulls, as the guard's did).
CREATE FUNCTION "tablelock"."history_changed_values"(names text[], from_row text[], to_row text[])
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN (SELECT jsonb_object_agg(u.name, u.value)
        FROM unnest(names, to_row, from_row) AS u(name, value, other)
        WHERE u.value IS DISTINCT FROM u.other);

CREATE FUNCTION "tablelock"."history_old_values"(operation text, names text[], old_row text[], new_row text[])
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE operation
  WHEN 'delete' THEN jsonb_object(names, old_row)
  WHEN 'update' THEN "tablelock"."history_changed_values"(names, new_row, old_row)
END;

CREATE FUNCTION "tablelock"."history_new_values"(operation text, names text[], old_row text[], new_row text[])
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE operation
  WHEN 'insert' THEN jsonb_object(names, new_row)
  WHEN 'update' THEN "tablelock"."history_changed_values"(names, old_row, new_row)
END;

-- Every row of a batch, each array read once (its rows regrouped from one unnest), in id order.
CREATE FUNCTION "tablelock"."row_change_batch_rows"(
  first_id bigint, keys text[], key_names text[], operations text[], names text[], old_rows text[],
  new_rows text[])
RETURNS TABLE (id bigint, row_key jsonb, operation text, old_values jsonb, new_values jsonb)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  WITH width AS (SELECT cardinality(names) AS n),
  old_image AS (
    SELECT (v.ord - 1) / width.n + 1 AS i, array_agg(v.value ORDER BY v.ord) AS image
    FROM width, unnest(old_rows) WITH ORDINALITY AS v(value, ord) GROUP BY 1),
  new_image AS (
    SELECT (v.ord - 1) / width.n + 1 AS i, array_agg(v.value ORDER BY v.ord) AS image
    FROM width, unnest(new_rows) WITH ORDINALITY AS v(value, ord) GROUP BY 1)
  SELECT first_id + r.i - 1, "tablelock"."history_key"(key_names, r.key_text), r.operation,
         "tablelock"."history_old_values"(r.operation, names, o.image, n.image),
         "tablelock"."history_new_values"(r.operation, names, o.image, n.image)
  FROM unnest(keys, operations) WITH ORDINALITY AS r(key_text, operation, i)
  LEFT JOIN old_image AS o ON o.i = r.i
  LEFT JOIN new_image AS n ON n.i = r.i
  ORDER BY r.i
$$;

-- One row's changes in both forms, without a batch row's images (they cost a read of the
-- batch's whole rows arrays each): row_change by its index on (table_name, row_key, id), the
-- batches by their hashes' signatures, the row in a batch by its key's position. A batch's row
-- names its batch and position, for row_change_batch_images.
CREATE FUNCTION "tablelock"."row_change_refs_of_row"(table_name text, row_key jsonb)
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
  FROM (SELECT "tablelock"."history_key_text"($2) AS key_text) AS k
  JOIN "tablelock"."row_change_batch" AS b
    ON b.hashes OPERATOR("tablelock".@>) ARRAY["tablelock"."history_key_hash"($1, k.key_text)]
       AND b.table_name = $1
  CROSS JOIN LATERAL (SELECT array_position(b.keys, k.key_text) AS i) AS p
  WHERE p.i IS NOT NULL
$$;

-- The old and new values of a batch's row, each images array read once (a subscript reads the
-- whole array; OFFSET 0 keeps the planner from copying the two slices into each use).
CREATE FUNCTION "tablelock"."row_change_batch_images"(batch_id bigint, position_in_batch integer)
RETURNS TABLE (old_values jsonb, new_values jsonb)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT "tablelock"."history_old_values"(r.operation, r.names, r.old_row, r.new_row),
         "tablelock"."history_new_values"(r.operation, r.names, r.old_row, r.new_row)
  FROM (SELECT b.operations[$2] AS operation, b.names,
               "tablelock"."history_row"(b.old_rows, $2) AS old_row,
               "tablelock"."history_row"(b.new_rows, $2) AS new_row
        FROM "tablelock"."row_change_batch" AS b WHERE b.id = $1 OFFSET 0) AS r
$$;

-- One row's changes in both forms, with their values.
CREATE FUNCTION "tablelock"."row_changes_of_row"(table_name text, row_key jsonb)
RETURNS TABLE (id bigint, change_set_id bigint, row_key jsonb, operation text, old_values jsonb,
               new_values jsonb)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT r.id, r.change_set_id, r.row_key, r.operation,
         CASE WHEN r.batch_id IS NULL THEN r.old_values ELSE i.old_values END,
         CASE WHEN r.batch_id IS NULL THEN r.new_values ELSE i.new_values END
  FROM "tablelock"."row_change_refs_of_row"($1, $2) AS r
  LEFT JOIN LATERAL "tablelock"."row_change_batch_images"(r.batch_id, r.position_in_batch) AS i
    ON r.batch_id IS NOT NULL
$$;

-- A change set's rows after row change `after_id`, in both forms: at least the first `wanted`
-- by id (callers order and limit). A change set's batches hold disjoint id ranges: the first
-- batch past `after_id` (perhaps read in part) and then whole batches until `wanted` rows are
-- enough; the later batches are not expanded.
CREATE FUNCTION "tablelock"."row_changes_of_change_set"(change_set_id bigint, after_id bigint, wanted integer)
RETURNS TABLE (id bigint, table_name text, row_key jsonb, operation text, old_values jsonb,
               new_values jsonb)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT rc.id, rc.table_name, rc.row_key, rc.operation, rc.old_values, rc.new_values
  FROM "tablelock"."row_change" AS rc
  WHERE rc.change_set_id = $1 AND rc.id > $2
  UNION ALL
  SELECT r.id, b.table_name, r.row_key, r.operation, r.old_values, r.new_values
  FROM (SELECT b.*, row_number() OVER w AS place,
               sum(b.row_count) OVER w - b.row_count - first_value(b.row_count) OVER w AS before
        FROM "tablelock"."row_change_batch" AS b
        WHERE b.change_set_id = $1 AND b.last_id > $2
        WINDOW w AS (ORDER BY b.first_id)) AS b
  CROSS JOIN LATERAL "tablelock"."row_change_batch_rows"(
    b.first_id, b.keys, b.key_names, b.operations, b.names, b.old_rows, b.new_rows) AS r
  WHERE (b.place = 1 OR b.before < $3) AND r.id > $2
$$;

-- A change set's row keys in both forms, without their images.
CREATE FUNCTION "tablelock"."row_keys_of_change_set"(change_set_id bigint)
RETURNS TABLE (id bigint, table_name text, row_key jsonb)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT rc.id, rc.table_name, rc.row_key FROM "tablelock"."row_change" AS rc
  WHERE rc.change_set_id = $1
  UNION ALL
  SELECT b.first_id + k.i - 1, b.table_name, "tablelock"."history_key"(b.key_names, k.key_text)
  FROM "tablelock"."row_change_batch" AS b
  CROSS JOIN LATERAL unnest(b.keys) WITH ORDINALITY AS k(key_text, i)
  WHERE b.change_set_id = $1
$$;

-- Every row change in both forms, for readers that join it to change sets (the as-of overlay):
-- a condition on change_set_id reaches both tables' indexes.
CREATE VIEW "tablelock"."recorded_row_change" AS
  SELECT rc.id, rc.change_set_id, rc.table_name, rc.row_key, rc.operation, rc.old_values,
         rc.new_values
  FROM "tablelock"."row_change" AS rc
  UNION ALL
  SELECT r.id, b.change_set_id, b.table_name, r.row_key, r.operation, r.old_values, r.new_values
  FROM "tablelock"."row_change_batch" AS b
  CROSS JOIN LATERAL "tablelock"."row_change_batch_rows"(
    b.first_id, b.keys, b.key_names, b.operations, b.names, b.old_rows, b.new_rows) AS r;

-- Writing (once batch_from_rows is set).

-- A row's column names and the SQL of its values as a text array (guard_row_json's columns, in
-- the same order); the SQL of its key as text (history_key_text) and the key's column names in
-- jsonb's order; whether the table has a primary key (a table without one keeps the per-row
-- form: its key is its whole row).
CREATE FUNCTION "tablelock"."guard_row_array"(relid oid, OUT names text[], OUT texts text,
                                              OUT key_names text[], OUT key_text text,
                                              OUT keyed boolean)
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT array_agg(a.attname::text ORDER BY a.attnum),
         format('ARRAY[%s]::text[]', string_agg(format('r.%I::text', a.attname), ', ' ORDER BY a.attnum)),
         array_agg(a.attname::text ORDER BY octet_length(a.attname::text), a.attname::text COLLATE "C")
           FILTER (WHERE a.attnum = ANY (i.indkey)),
         CASE WHEN count(*) FILTER (WHERE a.attnum = ANY (i.indkey)) = 1
              THEN format('r.%I::text', min(a.attname::text) FILTER (WHERE a.attnum = ANY (i.indkey)))
              ELSE format('ARRAY[%s]::text[]::text',
                          string_agg(format('r.%I::text', a.attname), ', '
                                     ORDER BY octet_length(a.attname::text), a.attname::text COLLATE "C")
                            FILTER (WHERE a.attnum = ANY (i.indkey)))
         END,
         count(*) FILTER (WHERE a.attnum = ANY (i.indkey)) > 0
  FROM pg_attribute AS a
  LEFT JOIN pg_index AS i ON i.indrelid = a.attrelid AND i.indisprimary
  WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped
$$;

-- The guard's statement that records a statement's rows as batches: the same rows and counts as
-- its per-row statement. $1 change set, $2 table, $3 column names, $4 a row of NULLs, $5 the
-- key's column names. Rows are cut into batches of 1,000 in the order they come (no sort).
CREATE FUNCTION "tablelock"."guard_batch_sql"(operation text, key_text text, texts text)
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
      FROM (SELECT batch.*, nextval('"tablelock"."row_change_id_seq"'::regclass) AS id
            FROM (SELECT count(*)::int AS row_count, array_agg(k) AS keys,
                         array_agg("tablelock"."history_key_hash"($2, k)) AS hashes,
                         array_agg(op) AS operations, %s AS old_rows, %s AS new_rows
                  FROM (SELECT k, ov, nv, (row_number() OVER () - 1) / 1000 AS chunk,
                               CASE WHEN ov IS NULL THEN 'insert' WHEN nv IS NULL THEN 'delete'
                                    ELSE 'update' END AS op
                        FROM pairs) AS p
                  GROUP BY chunk) AS batch) AS numbered
      RETURNING operations)
    SELECT coalesce(sum(cardinality(array_positions(operations, 'insert'))), 0) AS inserted,
           coalesce(sum(cardinality(array_positions(operations, 'update'))), 0) AS updated,
           coalesce(sum(cardinality(array_positions(operations, 'delete'))), 0) AS deleted
    FROM recorded$sql$,
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
      ELSE $q$CASE WHEN bool_or(nv IS NOT NULL) THEN array_agg(coalesce(nv, $4)) ELSE '{}' END$q$ END)
$$;

-- As before (migration history_counted_per_statement), recording a statement of at least
-- history_capture.batch_from_rows rows of a table with a primary key as batches.
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
    EXECUTE "tablelock"."guard_batch_sql"(TG_OP, row_array.key_text, row_array.texts)
      INTO inserted, updated, deleted
      USING change_set_id, TG_TABLE_NAME, row_array.names,
            array_fill(NULL::text, ARRAY[cardinality(row_array.names)]), row_array.key_names;
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

REVOKE EXECUTE ON FUNCTION "tablelock"."guard_batch_sql"(text, text, text) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION "tablelock"."guard_row_array"(oid) FROM PUBLIC;
