-- A change set's row counts are written once, when its transaction commits, instead of by
-- every statement: a grid save runs one statement per row, each under a savepoint, and 1,000
-- updates of the same change set row in one transaction made a 1,000-row save overrun its
-- 60 s (`pnpm --filter @tablelock/bench bench:guard`, 100,000 rows in the table).
CREATE OR REPLACE FUNCTION "tablelock"."guard_write"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  change_set_id bigint := "tablelock"."guard_change_set"(TG_TABLE_NAME, TG_ARGV[0]);
  shape record;
BEGIN
  SELECT * INTO shape FROM "tablelock"."guard_row_json"(TG_RELID);
  IF TG_OP = 'INSERT' THEN
    EXECUTE format($sql$
      INSERT INTO "tablelock"."row_change" (change_set_id, table_name, row_key, operation, new_values)
      SELECT $1, $2, %s, 'insert', %s FROM new_rows AS r$sql$, shape.key, shape.whole)
      USING change_set_id, TG_TABLE_NAME;
    RETURN NULL;
  END IF;
  IF TG_OP = 'DELETE' THEN
    EXECUTE format($sql$
      INSERT INTO "tablelock"."row_change" (change_set_id, table_name, row_key, operation, old_values)
      SELECT $1, $2, %s, 'delete', %s FROM old_rows AS r$sql$, shape.key, shape.whole)
      USING change_set_id, TG_TABLE_NAME;
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
    )
    INSERT INTO "tablelock"."row_change"
      (change_set_id, table_name, row_key, operation, old_values, new_values)
    SELECT $1, $2, k, operation, old_values, new_values FROM changes$sql$, shape.key, shape.whole)
    USING change_set_id, TG_TABLE_NAME;
  RETURN NULL;
END;
$$;

CREATE OR REPLACE FUNCTION "tablelock"."guard_truncate"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  change_set_id bigint := "tablelock"."guard_change_set"(TG_TABLE_NAME, TG_ARGV[0]);
  shape record;
BEGIN
  SELECT * INTO shape FROM "tablelock"."guard_row_json"(TG_RELID);
  EXECUTE format($sql$
    INSERT INTO "tablelock"."row_change" (change_set_id, table_name, row_key, operation, old_values)
    SELECT $1, $2, %s, 'delete', %s FROM ONLY %I.%I AS r$sql$,
    shape.key, shape.whole, TG_TABLE_SCHEMA, TG_TABLE_NAME)
    USING change_set_id, TG_TABLE_NAME;
  RETURN NULL;
END;
$$;

-- At commit: the change set's counts, from its row changes; and an unlocked write becomes one
-- `unlocked_write` lock event per table and transaction, announced like every lock event (the
-- payload of packages/lock's notifyEvent, with `tables` empty).
CREATE FUNCTION "tablelock"."finish_change_set"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  cs "tablelock"."change_set";
  event "tablelock"."lock_event";
BEGIN
  UPDATE "tablelock"."change_set" AS c
  SET rows_inserted = counts.inserted, rows_updated = counts.updated, rows_deleted = counts.deleted
  FROM (SELECT count(*) FILTER (WHERE operation = 'insert') AS inserted,
               count(*) FILTER (WHERE operation = 'update') AS updated,
               count(*) FILTER (WHERE operation = 'delete') AS deleted
        FROM "tablelock"."row_change" WHERE change_set_id = NEW.id) AS counts
  WHERE c.id = NEW.id
  RETURNING c.* INTO cs;
  IF cs.kind <> 'unlocked_write' THEN RETURN NULL; END IF;
  INSERT INTO "tablelock"."lock_event" (action, table_name, actor, editor, rows_changed, details)
  VALUES ('unlocked_write', cs.table_name, 'db:' || cs.db_role, NULL,
          cs.rows_inserted + cs.rows_updated + cs.rows_deleted,
          jsonb_build_object('changeSetId', cs.id::text, 'dbRole', cs.db_role,
                             'applicationName', cs.application_name,
                             'inserted', cs.rows_inserted, 'updated', cs.rows_updated,
                             'deleted', cs.rows_deleted))
  RETURNING * INTO event;
  PERFORM pg_notify('tablelock_lock_change', jsonb_build_object(
    'id', event.id::text, 'at', event.at, 'action', event.action, 'table', event.table_name,
    'actor', event.actor, 'editor', event.editor, 'token', NULL, 'reason', NULL,
    'rowsChanged', event.rows_changed, 'previousEditor', NULL, 'tables', '[]'::jsonb)::text);
  RETURN NULL;
END;
$$;

DROP TRIGGER "change_set_unlocked_write" ON "tablelock"."change_set";
DROP FUNCTION "tablelock"."announce_unlocked_write"();
CREATE CONSTRAINT TRIGGER "change_set_finish" AFTER INSERT ON "tablelock"."change_set"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "tablelock"."finish_change_set"();
