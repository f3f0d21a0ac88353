-- A change set's counts follow its rows whatever the transaction does with SET CONSTRAINTS
-- (issue 40, item 9). The finish (counts, and an unlocked write's lock event) was a deferred
-- constraint trigger queued by the change set's INSERT, before any of its rows were recorded,
-- and once only. A transaction that set its constraints IMMEDIATE (any session may, by name or
-- ALL) fired it there and then: 300 rows written, 0 counted and announced; and a later
-- statement's rows were never counted.
--
-- Now each statement queues the finish after recording its rows, when none is queued:
-- counts_pending is set by the guard's trigger (an update that finds it set already changes
-- nothing, so the usual deferred finish costs one update per change set, not per statement),
-- and cleared by the finish. Deferred, the finish runs once at commit; fired early, it ran
-- after the rows so far, and the next statement queues it again. An unlocked write's lock
-- event is made by the first finish and brought up to date by the next ones, announced again
-- with the new counts: one lock event per change set, whose last announcement has its counts.

ALTER TABLE "tablelock"."change_set" ADD COLUMN "counts_pending" BOOLEAN NOT NULL DEFAULT false;

-- As before (migration write_guard_counts_at_commit), then queues the finish.
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
  ELSIF TG_OP = 'DELETE' THEN
    EXECUTE format($sql$
      INSERT INTO "tablelock"."row_change" (change_set_id, table_name, row_key, operation, old_values)
      SELECT $1, $2, %s, 'delete', %s FROM old_rows AS r$sql$, shape.key, shape.whole)
      USING change_set_id, TG_TABLE_NAME;
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
      )
      INSERT INTO "tablelock"."row_change"
        (change_set_id, table_name, row_key, operation, old_values, new_values)
      SELECT $1, $2, k, operation, old_values, new_values FROM changes$sql$, shape.key, shape.whole)
      USING change_set_id, TG_TABLE_NAME;
  END IF;
  UPDATE "tablelock"."change_set" SET counts_pending = true
  WHERE id = change_set_id AND NOT counts_pending;
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
  UPDATE "tablelock"."change_set" SET counts_pending = true
  WHERE id = change_set_id AND NOT counts_pending;
  RETURN NULL;
END;
$$;

-- The change set's counts, from its row changes; and an unlocked write's lock event, made the
-- first time and brought up to date after, announced each time its counts change (the payload
-- of packages/lock's notifyEvent, with `tables` empty). The event is found by the change set's
-- `at`: both are the transaction's start (now()), and lock_event is indexed on it.
CREATE OR REPLACE FUNCTION "tablelock"."finish_change_set"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  cs "tablelock"."change_set";
  event "tablelock"."lock_event";
  total int;
BEGIN
  UPDATE "tablelock"."change_set" AS c
  SET rows_inserted = counts.inserted, rows_updated = counts.updated, rows_deleted = counts.deleted,
      counts_pending = false
  FROM (SELECT count(*) FILTER (WHERE operation = 'insert') AS inserted,
               count(*) FILTER (WHERE operation = 'update') AS updated,
               count(*) FILTER (WHERE operation = 'delete') AS deleted
        FROM "tablelock"."row_change" WHERE change_set_id = NEW.id) AS counts
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
                               'deleted', cs.rows_deleted))
    RETURNING * INTO event;
  ELSIF event.rows_changed = total THEN
    RETURN NULL;
  ELSE
    UPDATE "tablelock"."lock_event"
    SET rows_changed = total,
        details = details || jsonb_build_object('inserted', cs.rows_inserted,
                                                'updated', cs.rows_updated,
                                                'deleted', cs.rows_deleted)
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

-- Queued by the guard's trigger once it has recorded a statement's rows, instead of by the
-- change set's INSERT. It fires always, as before (migration write_guard_always).
DROP TRIGGER "change_set_finish" ON "tablelock"."change_set";
CREATE CONSTRAINT TRIGGER "change_set_finish" AFTER UPDATE OF "counts_pending" ON "tablelock"."change_set"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.counts_pending AND NOT OLD.counts_pending)
  EXECUTE FUNCTION "tablelock"."finish_change_set"();
ALTER TABLE "tablelock"."change_set" ENABLE ALWAYS TRIGGER "change_set_finish";
