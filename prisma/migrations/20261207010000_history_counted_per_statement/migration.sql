-- History at bulk speed (issue 45, outcome 1; docs/decisions/0022): a change set's counts are
-- added up by each statement as it records its rows, not counted again at commit.
--
-- The finish (migration write_guard_counts_after_rows) counted the change set's row changes by
-- its index on change_set_id at commit, a second pass over every row an import recorded. Each
-- statement's INSERT into row_change now returns what it recorded, and the guard adds those
-- counts to the change set in the same UPDATE that queues the finish; the finish keeps them.
-- Counts still follow the rows: a statement rolled back to a savepoint takes its rows and its
-- addition with it (same subtransaction), and a finish fired early by SET CONSTRAINTS
-- IMMEDIATE is queued again by the next statement, as before. An update that changes nothing
-- (no row recorded) under a pending finish updates nothing, as before.

-- As before (migration row_scope_writes), counting what each statement recorded.
CREATE OR REPLACE FUNCTION "tablelock"."guard_write"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  change_set_id bigint := "tablelock"."guard_change_set"(TG_TABLE_NAME, TG_ARGV[0]);
  shape record;
  written record;
  scope_column text;
  touched text[];
BEGIN
  SELECT * INTO shape FROM "tablelock"."guard_row_json"(TG_RELID);
  IF TG_OP = 'INSERT' THEN
    EXECUTE format($sql$
      WITH recorded AS (
        INSERT INTO "tablelock"."row_change" (change_set_id, table_name, row_key, operation, new_values)
        SELECT $1, $2, %s, 'insert', %s FROM new_rows AS r RETURNING 1)
      SELECT count(*) AS inserted, 0 AS updated, 0 AS deleted FROM recorded$sql$, shape.key, shape.whole)
      INTO written USING change_set_id, TG_TABLE_NAME;
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE format($sql$
      WITH recorded AS (
        INSERT INTO "tablelock"."row_change" (change_set_id, table_name, row_key, operation, old_values)
        SELECT $1, $2, %s, 'delete', %s FROM old_rows AS r RETURNING 1)
      SELECT 0 AS inserted, 0 AS updated, count(*) AS deleted FROM recorded$sql$, shape.key, shape.whole)
      INTO written USING change_set_id, TG_TABLE_NAME;
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
      INTO written USING change_set_id, TG_TABLE_NAME;
  END IF;
  UPDATE "tablelock"."change_set"
  SET rows_inserted = rows_inserted + written.inserted, rows_updated = rows_updated + written.updated,
      rows_deleted = rows_deleted + written.deleted, counts_pending = true
  WHERE id = change_set_id
    AND NOT (counts_pending AND written.inserted + written.updated + written.deleted = 0);
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


-- As before (migration row_scope_writes), counting what the truncate recorded.
CREATE OR REPLACE FUNCTION "tablelock"."guard_truncate"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  change_set_id bigint := "tablelock"."guard_change_set"(TG_TABLE_NAME, TG_ARGV[0]);
  shape record;
  written record;
  scope_column text;
  touched text[];
BEGIN
  SELECT * INTO shape FROM "tablelock"."guard_row_json"(TG_RELID);
  EXECUTE format($sql$
    WITH recorded AS (
      INSERT INTO "tablelock"."row_change" (change_set_id, table_name, row_key, operation, old_values)
      SELECT $1, $2, %s, 'delete', %s FROM ONLY %I.%I AS r RETURNING 1)
    SELECT 0 AS inserted, 0 AS updated, count(*) AS deleted FROM recorded$sql$,
    shape.key, shape.whole, TG_TABLE_SCHEMA, TG_TABLE_NAME)
    INTO written USING change_set_id, TG_TABLE_NAME;
  UPDATE "tablelock"."change_set"
  SET rows_inserted = rows_inserted + written.inserted, rows_updated = rows_updated + written.updated,
      rows_deleted = rows_deleted + written.deleted, counts_pending = true
  WHERE id = change_set_id
    AND NOT (counts_pending AND written.inserted + written.updated + written.deleted = 0);
  IF EXISTS (SELECT 1 FROM "tablelock"."row_lock" AS rl WHERE rl.table_name = TG_TABLE_NAME) THEN
    scope_column := "tablelock"."row_lock_column"(TG_RELID, TG_TABLE_NAME);
    EXECUTE format('SELECT array_agg(DISTINCT r.%I::text) FROM ONLY %I.%I AS r',
                   scope_column, TG_TABLE_SCHEMA, TG_TABLE_NAME)
      INTO touched;
    PERFORM "tablelock"."fence_row_scopes"(change_set_id, TG_TABLE_NAME, TG_ARGV[0], scope_column,
                                           touched);
  END IF;
  RETURN NULL;
END;
$$;


-- As before (migration row_scope_writes), with the counts the statements kept.
CREATE OR REPLACE FUNCTION "tablelock"."finish_change_set"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  cs "tablelock"."change_set";
  event "tablelock"."lock_event";
  total int;
BEGIN
  UPDATE "tablelock"."change_set" AS c SET counts_pending = false
  WHERE c.id = NEW.id
  RETURNING c.* INTO cs;
  IF cs.kind <> 'unlocked_write' THEN RETURN NULL; END IF;
  total := cs.rows_inserted + cs.rows_updated + cs.rows_deleted;
  SELECT * INTO event FROM "tablelock"."lock_event" AS e
    WHERE e.at = cs.at AND e.action = 'unlocked_write' AND e.table_name = cs.table_name
      AND e.details ->> 'changeSetId' = cs.id::text;
  IF NOT found THEN
    INSERT INTO "tablelock"."lock_event" (action, table_name, actor, editor, rows_changed, details)
    VALUES ('unlocked_write', cs.table_name, 'db:' || cs.db_role, NULL, total,
            jsonb_build_object('changeSetId', cs.id::text, 'dbRole', cs.db_role,
                               'applicationName', cs.application_name,
                               'inserted', cs.rows_inserted, 'updated', cs.rows_updated,
                               'deleted', cs.rows_deleted)
            || "tablelock"."broken_scopes_details"(cs))
    RETURNING * INTO event;
  ELSIF event.rows_changed = total THEN
    RETURN NULL;
  ELSE
    UPDATE "tablelock"."lock_event"
    SET rows_changed = total,
        details = details || jsonb_build_object('inserted', cs.rows_inserted,
                                                'updated', cs.rows_updated,
                                                'deleted', cs.rows_deleted)
                  || "tablelock"."broken_scopes_details"(cs)
    WHERE id = event.id
    RETURNING * INTO event;
  END IF;
  PERFORM pg_notify('tablelock_lock_change', jsonb_build_object(
    'id', event.id::text, 'at', event.at, 'action', event.action, 'table', event.table_name,
    'actor', event.actor, 'editor', event.editor, 'token', NULL, 'reason', NULL,
    'rowsChanged', event.rows_changed, 'previousEditor', NULL, 'tables', '[]'::jsonb)::text);
  RETURN NULL;
END;
$$;

