-- History at bulk speed (issue 45, outcome 1; docs/decisions/0022): the compact form of the row
-- history, and its readers. Expand only: nothing writes the compact form until
-- tablelock.history_capture.batch_from_rows is set (NULL here); a release after this one sets
-- it, once every running release reads both forms.
--
-- A statement of the write guard that changes at least batch_from_rows rows records them as
-- batches of up to 1,000 rows (row_change_batch) instead of one row_change per row: the rows'
-- keys (row_key as text), ids (from row_change's own sequence, so both forms share one order),
-- operations, and their images as a rows × columns text array under the column names written
-- once. A batch is found by its keys' range: the statement's keys are sorted (collation "C")
-- before they are cut into batches, so one statement's batches do not overlap, and a GiST index
-- holds one entry per batch, not per row. The jsonb images are built only when read, by the
-- functions below, and read as row_change's: the same key, operation, and old → new values (an
-- update names only its changed columns; an update that changes nothing is not recorded).

CREATE TYPE "tablelock"."history_key_range" AS RANGE (subtype = text, collation = "C");

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
    -- From the first key to the last, each prefixed by the table's name and a unit separator.
    "key_range" "tablelock"."history_key_range" NOT NULL,
    "first_id" BIGINT NOT NULL,
    "last_id" BIGINT NOT NULL,
    "row_count" INTEGER NOT NULL,
    "ids" BIGINT[] NOT NULL,
    "keys" TEXT[] NOT NULL,
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
  ALTER COLUMN "ids" SET STORAGE EXTERNAL, ALTER COLUMN "keys" SET STORAGE EXTERNAL,
  ALTER COLUMN "operations" SET STORAGE EXTERNAL, ALTER COLUMN "old_rows" SET STORAGE EXTERNAL,
  ALTER COLUMN "new_rows" SET STORAGE EXTERNAL;
CREATE INDEX "row_change_batch_key_range_idx" ON "tablelock"."row_change_batch" USING gist ("key_range");
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

-- Reading: what a batch's row says, as row_change says it. Without a search_path of their own
-- (every name is qualified), so that the planner inlines them into the caller's query.

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
  ids bigint[], keys text[], operations text[], names text[], old_rows text[], new_rows text[])
RETURNS TABLE (id bigint, row_key jsonb, operation text, old_values jsonb, new_values jsonb)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  WITH width AS (SELECT cardinality(names) AS n),
  old_image AS (
    SELECT (v.ord - 1) / width.n + 1 AS i, array_agg(v.value ORDER BY v.ord) AS image
    FROM width, unnest(old_rows) WITH ORDINALITY AS v(value, ord) GROUP BY 1),
  new_image AS (
    SELECT (v.ord - 1) / width.n + 1 AS i, array_agg(v.value ORDER BY v.ord) AS image
    FROM width, unnest(new_rows) WITH ORDINALITY AS v(value, ord) GROUP BY 1)
  SELECT r.id, r.row_key::jsonb, r.operation,
         "tablelock"."history_old_values"(r.operation, names, o.image, n.image),
         "tablelock"."history_new_values"(r.operation, names, o.image, n.image)
  FROM unnest(ids, keys, operations) WITH ORDINALITY AS r(id, row_key, operation, i)
  LEFT JOIN old_image AS o ON o.i = r.i
  LEFT JOIN new_image AS n ON n.i = r.i
  ORDER BY r.id
$$;

-- One row's changes in both forms: row_change by its index on (table_name, row_key, id), the
-- batches by their keys' range, the row in a batch by its key's position.
CREATE FUNCTION "tablelock"."row_changes_of_row"(table_name text, row_key jsonb)
RETURNS TABLE (id bigint, change_set_id bigint, row_key jsonb, operation text, old_values jsonb,
               new_values jsonb)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT rc.id, rc.change_set_id, rc.row_key, rc.operation, rc.old_values, rc.new_values
  FROM "tablelock"."row_change" AS rc
  WHERE rc.table_name = $1 AND rc.row_key = $2
  UNION ALL
  SELECT b.ids[p.i], b.change_set_id, $2, b.operations[p.i],
         "tablelock"."history_old_values"(b.operations[p.i], b.names,
           "tablelock"."history_row"(b.old_rows, p.i), "tablelock"."history_row"(b.new_rows, p.i)),
         "tablelock"."history_new_values"(b.operations[p.i], b.names,
           "tablelock"."history_row"(b.old_rows, p.i), "tablelock"."history_row"(b.new_rows, p.i))
  FROM "tablelock"."row_change_batch" AS b
  CROSS JOIN LATERAL (SELECT array_position(b.keys, $2::text) AS i) AS p
  WHERE b.key_range @> ($1 || chr(31) || $2::text) AND b.table_name = $1 AND p.i IS NOT NULL
$$;

-- A change set's rows after row change `after_id`, in both forms: at least the first `wanted`
-- by id (callers order and limit). One change set's statements ran one after another, and a
-- statement's batches took their ids in key order, so its batches hold disjoint, ordered id
-- ranges: the first batch past `after_id` (perhaps read in part) and then whole batches until
-- `wanted` rows are enough, and the later batches are not expanded.
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
    b.ids, b.keys, b.operations, b.names, b.old_rows, b.new_rows) AS r
  WHERE (b.place = 1 OR b.before < $3) AND r.id > $2
$$;

-- A change set's row keys in both forms, without their images.
CREATE FUNCTION "tablelock"."row_keys_of_change_set"(change_set_id bigint)
RETURNS TABLE (id bigint, table_name text, row_key jsonb)
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT rc.id, rc.table_name, rc.row_key FROM "tablelock"."row_change" AS rc
  WHERE rc.change_set_id = $1
  UNION ALL
  SELECT k.id, b.table_name, k.row_key::jsonb
  FROM "tablelock"."row_change_batch" AS b
  CROSS JOIN LATERAL unnest(b.ids, b.keys) AS k(id, row_key)
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
    b.ids, b.keys, b.operations, b.names, b.old_rows, b.new_rows) AS r;

-- Writing (once batch_from_rows is set).

-- A row's column names and the SQL of its values as a text array (guard_row_json's columns, in
-- the same order), and whether the table has a primary key (a table without one keeps the
-- per-row form: its key is its whole row).
CREATE FUNCTION "tablelock"."guard_row_array"(relid oid, OUT names text[], OUT texts text,
                                              OUT keyed boolean)
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT array_agg(a.attname::text ORDER BY a.attnum),
         format('ARRAY[%s]::text[]', string_agg(format('r.%I::text', a.attname), ', ' ORDER BY a.attnum)),
         EXISTS (SELECT 1 FROM pg_index AS i WHERE i.indrelid = $1 AND i.indisprimary)
  FROM pg_attribute AS a
  WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped
$$;

-- The guard's statement that records a statement's rows as batches: the same rows and counts as
-- its per-row statement. $1 change set, $2 table, $3 column names, $4 a row of NULLs.
CREATE FUNCTION "tablelock"."guard_batch_sql"(operation text, key_sql text, texts text)
RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT format($sql$
    WITH %s,
    numbered AS MATERIALIZED (
      SELECT k, ov, nv, CASE WHEN ov IS NULL THEN 'insert' WHEN nv IS NULL THEN 'delete' ELSE 'update' END AS op,
             nextval('"tablelock"."row_change_id_seq"'::regclass) AS id,
             (row_number() OVER (ORDER BY k COLLATE "C") - 1) / 1000 AS chunk
      FROM pairs),
    recorded AS (
      INSERT INTO "tablelock"."row_change_batch"
        (change_set_id, table_name, key_range, first_id, last_id, row_count, ids, keys, operations,
         names, old_rows, new_rows)
      SELECT $1, $2,
             "tablelock"."history_key_range"($2 || chr(31) || min(k COLLATE "C"),
                                             $2 || chr(31) || max(k COLLATE "C"), '[]'),
             min(id), max(id), count(*), array_agg(id ORDER BY id), array_agg(k ORDER BY id),
             array_agg(op ORDER BY id), $3,
             CASE WHEN bool_or(ov IS NOT NULL) THEN array_agg(coalesce(ov, $4) ORDER BY id) ELSE '{}' END,
             CASE WHEN bool_or(nv IS NOT NULL) THEN array_agg(coalesce(nv, $4) ORDER BY id) ELSE '{}' END
      FROM numbered GROUP BY chunk
      RETURNING 1)
    SELECT count(*) FILTER (WHERE op = 'insert') AS inserted,
           count(*) FILTER (WHERE op = 'update') AS updated,
           count(*) FILTER (WHERE op = 'delete') AS deleted
    FROM numbered$sql$,
    CASE operation
      WHEN 'INSERT' THEN format(
        'pairs AS (SELECT (%s)::text AS k, NULL::text[] AS ov, %s AS nv FROM new_rows AS r)', key_sql, texts)
      WHEN 'DELETE' THEN format(
        'pairs AS (SELECT (%s)::text AS k, %s AS ov, NULL::text[] AS nv FROM old_rows AS r)', key_sql, texts)
      ELSE format(
        'n AS (SELECT (%1$s)::text AS k, %2$s AS v FROM new_rows AS r), '
        'o AS (SELECT (%1$s)::text AS k, %2$s AS v FROM old_rows AS r), '
        'pairs AS (SELECT coalesce(n.k, o.k) AS k, o.v AS ov, n.v AS nv '
        'FROM n FULL JOIN o ON o.k = n.k WHERE o.v IS DISTINCT FROM n.v)', key_sql, texts)
    END)
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
    EXECUTE "tablelock"."guard_batch_sql"(TG_OP, shape.key, row_array.texts)
      INTO inserted, updated, deleted
      USING change_set_id, TG_TABLE_NAME, row_array.names,
            array_fill(NULL::text, ARRAY[cardinality(row_array.names)]);
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
