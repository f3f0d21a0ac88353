-- Changes that take effect on a date (issue 44; docs/decisions/0023).
--
-- A change request may carry `effective_at`: it is applied then, by the scheduler of one API
-- process, not at its approval. Such a request never carries its table's lock, in any state:
-- its author's lock is released at submission (or kept, as asked), and others go on editing.
-- So `pending` (waiting for approval) blocks writes only for a request without effective_at:
-- use_lock and the write guard look for those alone, and a lock that ends does not reject a
-- scheduled request made under it.
--
-- A scheduled request writes (its trial at submission, its application at its time) under the
-- mark of write_change_request, like an approval: the guard lets the mark through while the
-- request is pending or scheduled and its token is the table's current, live lock. At its time
-- the scheduler takes the table through the line and sets the request's token to its own lock's
-- in the applying transaction, which also moves the request from scheduled to applied (or
-- failed): one transaction, so a request is applied once or not at all.
--
-- Expand only (the previous release runs beside this one during a deploy): the unique index of
-- one pending request per table stays, so a table has at most one request waiting for approval,
-- scheduled or not. A later release may narrow it to requests without effective_at.

ALTER TABLE "tablelock"."change_request"
    ADD COLUMN "effective_at" TIMESTAMPTZ(3),
    ADD COLUMN "applied_at" TIMESTAMPTZ(3),
    ADD COLUMN "failed_at" TIMESTAMPTZ(3),
    ADD COLUMN "late_by_seconds" INTEGER,
    ADD COLUMN "failure" JSONB,
    -- The API process applying it now (its LISTEN connection's application_name): another
    -- process takes it over only once that connection is gone.
    ADD COLUMN "claimed_by" TEXT;

-- What the scheduler looks up: the scheduled requests by their time.
CREATE INDEX "change_request_scheduled_effective_at_idx" ON "tablelock"."change_request"("effective_at")
    WHERE "state" = 'scheduled';

-- Every API process's scheduler sleeps until the next due time; a request scheduled or moved
-- wakes them (the payload is its id), so that none sleeps past a time set after it fell asleep.
CREATE FUNCTION "tablelock"."announce_schedule"() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM pg_notify('tablelock_schedule', NEW.id::text);
  RETURN NULL;
END;
$$;
CREATE TRIGGER "change_request_announce_schedule"
    AFTER INSERT OR UPDATE OF "state", "effective_at" ON "tablelock"."change_request"
    FOR EACH ROW WHEN (NEW.state = 'scheduled')
    EXECUTE FUNCTION "tablelock"."announce_schedule"();

-- As before (migration change_requests), and: a scheduled request, which carries no lock, is
-- not rejected when a lock with its token ends.
CREATE OR REPLACE FUNCTION "tablelock"."reject_orphaned_change_request"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    ended RECORD;
BEGIN
    SELECT actor, reason INTO ended FROM "tablelock"."lock_event"
    WHERE table_name = NEW.table_name
      AND action IN ('force_release', 'take_over', 'expire', 'release')
    ORDER BY id DESC LIMIT 1;
    UPDATE "tablelock"."change_request"
    SET state = 'rejected', decided_at = now(),
        decided_by = coalesce(ended.actor, 'system'),
        decision_comment = coalesce(ended.reason, 'The lock ended.')
    WHERE table_name = NEW.table_name AND state = 'pending' AND token = OLD.fencing_token
      AND effective_at IS NULL;
    RETURN NULL;
END;
$$;

-- As before (migration write_guard_four_eyes), and: a scheduled request's application marks
-- its write too, under the lock the scheduler took for it.
CREATE OR REPLACE FUNCTION "tablelock"."write_change_request"(request_id bigint, approved_by text)
RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  request "tablelock"."change_request";
  lock "tablelock"."table_lock";
BEGIN
  SELECT * INTO request FROM "tablelock"."change_request" AS r WHERE r.id = request_id FOR SHARE;
  IF found THEN
    SELECT * INTO lock FROM "tablelock"."table_lock" AS tl WHERE tl.table_name = request.table_name
      FOR SHARE;
  END IF;
  IF NOT coalesce(request.state = 'pending'
                  OR request.state = 'scheduled' AND request.effective_at IS NOT NULL, false)
     OR lock.fencing_token IS DISTINCT FROM request.token
     OR NOT "tablelock"."lock_holds"(lock) THEN
    RAISE EXCEPTION 'tablelock: change request % is not pending under the current lock of its table.',
      request_id USING ERRCODE = 'TL001';
  END IF;
  INSERT INTO "tablelock"."request_write" (table_name, change_request_id, approved_by)
  VALUES (request.table_name, request_id, approved_by)
  ON CONFLICT (txid, table_name) DO UPDATE
    SET change_request_id = EXCLUDED.change_request_id, approved_by = EXCLUDED.approved_by;
END;
$$;
REVOKE EXECUTE ON FUNCTION "tablelock"."write_change_request"(bigint, text) FROM PUBLIC;

-- As before (migration outbox), and: a request scheduled, applied at its time or failed there
-- is announced as change.scheduled, change.applied or change.failed.
CREATE OR REPLACE FUNCTION "tablelock"."outbox_lock_event"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO "tablelock"."outbox_event" (table_name, type, at, lock_event_id)
  SELECT e.table_name,
         CASE e.action WHEN 'request_scheduled' THEN 'change.scheduled'
                       WHEN 'request_applied' THEN 'change.applied'
                       WHEN 'request_failed' THEN 'change.failed'
                       ELSE e.action::text END,
         e.at, e.id FROM new_events AS e
  WHERE e.action IN ('acquire', 'release', 'expire', 'force_release', 'take_over', 'freeze', 'thaw',
                     'request_scheduled', 'request_applied', 'request_failed')
  ORDER BY e.id;
  RETURN NULL;
END;
$$;

-- As before (migration row_scope_writes), and: only a pending request without effective_at
-- keeps writes out.
CREATE OR REPLACE FUNCTION "tablelock"."use_lock"(table_name text, token text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  lock "tablelock"."table_lock";
  scope "tablelock"."row_lock";
  shown bigint;
  pending_id bigint;
BEGIN
  IF token IS NULL OR token !~ '^[0-9]{1,18}$' THEN
    RAISE EXCEPTION 'tablelock: % is not a lock token of %.', coalesce(token, 'null'), table_name
      USING ERRCODE = 'TL001', HINT = 'The token is the number tablelock gave when the lock was taken.';
  END IF;
  shown := token::bigint;
  SELECT * INTO lock FROM "tablelock"."table_lock" AS tl WHERE tl.table_name = use_lock.table_name;
  IF NOT found THEN
    RAISE EXCEPTION 'tablelock: no master table is named %.', table_name USING ERRCODE = 'TL001';
  END IF;
  IF lock.fencing_token IS DISTINCT FROM shown OR NOT "tablelock"."lock_holds"(lock) THEN
    SELECT * INTO scope FROM "tablelock"."row_lock" AS r
      WHERE r.fencing_token = shown AND r.table_name = use_lock.table_name;
  END IF;
  IF (lock.fencing_token IS DISTINCT FROM shown OR NOT "tablelock"."lock_holds"(lock))
     AND NOT coalesce("tablelock"."scope_holds"(scope)) THEN
    RAISE EXCEPTION 'tablelock: token % is not the current lock of %.', token, table_name
      USING ERRCODE = 'TL001',
            DETAIL = CASE WHEN "tablelock"."lock_holds"(lock)
                          THEN format('%s holds %s under another token.', lock.editor, table_name)
                          WHEN "tablelock"."scope_holders"(table_name) IS NOT NULL
                          THEN format('%s hold row scopes of %s; none has this token.',
                                      "tablelock"."scope_holders"(table_name), table_name)
                          ELSE format('Nobody holds %s now.', table_name) END,
            HINT = format('Take the lock again: tablelock lock %s -- <command>', table_name);
  END IF;
  SELECT r.id INTO pending_id FROM "tablelock"."change_request" AS r
    WHERE r.table_name = use_lock.table_name AND r.state = 'pending'
      AND r.effective_at IS NULL;
  IF found THEN
    RAISE EXCEPTION 'tablelock: % waits with change request % for approval: nobody writes it meanwhile.',
      table_name, pending_id
      USING ERRCODE = 'TL004', HINT = 'An approver applies the request (approveChangeRequest).';
  END IF;
  IF EXISTS (SELECT 1 FROM "tablelock"."table_policy" AS p
             WHERE p.table_name = use_lock.table_name AND p.changes_need_approval) THEN
    RAISE EXCEPTION 'tablelock: changes to % need another person''s approval.', table_name
      USING ERRCODE = 'TL004',
            HINT = 'Submit them as a change request (submitChangeRequest); an approver applies them.';
  END IF;
  PERFORM set_config('tablelock.tokens',
    (coalesce(nullif(current_setting('tablelock.tokens', true), ''), '{}')::jsonb
      || jsonb_build_object(table_name, token))::text, true);
END;
$$;

-- As before (migration row_scope_writes), and: only a pending request without effective_at
-- keeps writes out; a scheduled request's marked write holds while its token is the table's
-- current lock (the scheduler's, at its time), and its application is kept as kind `scheduled`
-- (from the mark, which only tablelock's role writes: write_label's kinds stay as they were).
CREATE OR REPLACE FUNCTION "tablelock"."guard_change_set"(table_name text, guard text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  found_set "tablelock"."change_set";
  found_id bigint;
  lock "tablelock"."table_lock";
  scope "tablelock"."row_lock";
  shown bigint := (coalesce(nullif(current_setting('tablelock.tokens', true), ''), '{}')::jsonb
                   ->> guard_change_set.table_name)::bigint;
  label "tablelock"."write_label";
  pending "tablelock"."change_request";
  has_pending boolean;
  marked_request "tablelock"."change_request";
  mark "tablelock"."request_write";
  marked boolean;
  needs_approval boolean;
  held boolean := false;
  -- Logical replication's apply, or a restore, by a role the operator named: it writes what
  -- was already judged where it came from.
  replication boolean := current_setting('session_replication_role') = 'replica'
    AND CASE WHEN to_regrole('tablelock_replication') IS NULL THEN false
             ELSE pg_has_role(session_user, to_regrole('tablelock_replication'), 'MEMBER') END;
BEGIN
  IF nullif(current_setting('tablelock.change_kind', true), '') IS NOT NULL
     OR nullif(current_setting('tablelock.reverts', true), '') IS NOT NULL THEN
    RAISE EXCEPTION 'tablelock: a write to % may not label itself: tablelock.change_kind and tablelock.reverts are set.',
      table_name
      USING ERRCODE = 'TL005',
            DETAIL = 'Only tablelock labels its own saves, imports and reverts.',
            HINT = 'Leave both settings unset: a write under use_lock is kept as a locked write, '
                   'one without as an unlocked write.';
  END IF;
  SELECT * INTO found_set FROM "tablelock"."change_set" AS cs
    WHERE cs.txid = pg_current_xact_id() AND cs.table_name = guard_change_set.table_name;
  IF found THEN
    IF found_set.kind = 'locked_write' AND cardinality(found_set.row_scope) > 0 THEN
      SELECT * INTO scope FROM "tablelock"."row_lock" AS r
        WHERE r.fencing_token = found_set.token AND r.table_name = guard_change_set.table_name;
      IF NOT coalesce("tablelock"."scope_holds"(scope)) THEN
        PERFORM "tablelock"."refuse_ended_lock"(table_name, found_set.token);
      END IF;
    ELSIF found_set.kind = 'locked_write' THEN
      SELECT * INTO lock FROM "tablelock"."table_lock" AS tl
        WHERE tl.table_name = guard_change_set.table_name;
      IF lock.fencing_token IS DISTINCT FROM found_set.token OR NOT "tablelock"."lock_holds"(lock) THEN
        PERFORM "tablelock"."refuse_ended_lock"(table_name, found_set.token);
      END IF;
    END IF;
    RETURN found_set.id;
  END IF;
  SELECT * INTO label FROM "tablelock"."write_label" AS l
    WHERE l.txid = pg_current_xact_id() AND l.table_name = guard_change_set.table_name;
  IF label.kind = 'revert' AND NOT EXISTS (
       SELECT 1 FROM "tablelock"."change_set" AS reverted
       WHERE reverted.id = label.reverts_change_set_id
         AND reverted.table_name = guard_change_set.table_name) THEN
    RAISE EXCEPTION 'tablelock: change % is not a change of %: a revert undoes a change of the table it writes.',
      coalesce(label.reverts_change_set_id::text, 'null'), table_name
      USING ERRCODE = 'TL005';
  END IF;
  SELECT * INTO lock FROM "tablelock"."table_lock" AS tl
    WHERE tl.table_name = guard_change_set.table_name;
  -- A token that is not the table's may be one of its row scopes'.
  IF shown IS NOT NULL AND lock.fencing_token IS DISTINCT FROM shown THEN
    SELECT * INTO scope FROM "tablelock"."row_lock" AS r
      WHERE r.fencing_token = shown AND r.table_name = guard_change_set.table_name;
  END IF;
  SELECT * INTO pending FROM "tablelock"."change_request" AS r
    WHERE r.table_name = guard_change_set.table_name AND r.state = 'pending'
      AND r.effective_at IS NULL;
  has_pending := found;
  SELECT * INTO mark FROM "tablelock"."request_write" AS w
    WHERE w.txid = pg_current_xact_id() AND w.table_name = guard_change_set.table_name;
  marked := found;
  needs_approval := coalesce((SELECT p.changes_need_approval FROM "tablelock"."table_policy" AS p
                              WHERE p.table_name = guard_change_set.table_name), false);
  IF marked THEN
    SELECT * INTO marked_request FROM "tablelock"."change_request" AS r
      WHERE r.id = mark.change_request_id AND r.table_name = guard_change_set.table_name;
    shown := marked_request.token;
    held := coalesce((marked_request.state = 'pending'
                      OR marked_request.state = 'scheduled' AND marked_request.effective_at IS NOT NULL)
                     AND (NOT has_pending OR pending.id = marked_request.id)
                     AND lock.fencing_token = shown AND "tablelock"."lock_holds"(lock), false);
  ELSE
    held := coalesce(shown IS NOT NULL AND NOT has_pending AND NOT needs_approval
                     AND CASE WHEN scope.fencing_token IS NOT NULL THEN "tablelock"."scope_holds"(scope)
                              ELSE lock.fencing_token = shown AND "tablelock"."lock_holds"(lock) END,
                     false);
    -- use_lock took the token, and its lock has ended since (nothing holds the row meanwhile).
    IF NOT held AND shown IS NOT NULL AND NOT has_pending AND NOT needs_approval THEN
      PERFORM "tablelock"."refuse_ended_lock"(table_name, shown);
    END IF;
  END IF;
  IF NOT held AND guard = 'ENFORCE' AND NOT replication THEN
    IF needs_approval THEN
      RAISE EXCEPTION 'tablelock: changes to % need another person''s approval: only an approved change request writes it.',
        table_name
        USING ERRCODE = 'TL004',
              HINT = 'Submit them as a change request (submitChangeRequest); an approver applies them.';
    ELSIF has_pending THEN
      RAISE EXCEPTION 'tablelock: % waits with change request % for approval: nobody writes it meanwhile.',
        table_name, pending.id
        USING ERRCODE = 'TL004', HINT = 'An approver applies the request (approveChangeRequest).';
    ELSIF lock.status = 'locked' THEN
      RAISE EXCEPTION 'tablelock: % is locked while % % edited: nobody may write it now.',
        table_name, array_to_string(lock.locked_by, ', '),
        CASE WHEN cardinality(lock.locked_by) = 1 THEN 'is' ELSE 'are' END
        USING ERRCODE = 'TL003', HINT = 'Wait until they are released.';
    ELSIF "tablelock"."scope_holders"(table_name) IS NOT NULL THEN
      RAISE EXCEPTION 'tablelock: % is being edited in row scopes by %: a write needs the token of the scope that holds its rows.',
        table_name, "tablelock"."scope_holders"(table_name)
        USING ERRCODE = 'TL002',
              HINT = format('Take a row scope of the rows it writes: tablelock lock %s --rows <values> -- <command>, '
                            'and call SELECT tablelock.use_lock(''%s'', ''<token>'') first.',
                            table_name, table_name);
    ELSIF "tablelock"."lock_holds"(lock) THEN
      RAISE EXCEPTION 'tablelock: % is being edited by %: a write needs the lock''s token.',
        table_name, lock.editor
        USING ERRCODE = 'TL002',
              HINT = format('Take the lock when it is free: tablelock lock %s -- <command>, '
                            'and call SELECT tablelock.use_lock(''%s'', ''<token>'') first.',
                            table_name, table_name);
    ELSE
      RAISE EXCEPTION 'tablelock: a write to % needs its lock, and nobody holds it: take the lock first.',
        table_name
        USING ERRCODE = 'TL002',
              HINT = format('tablelock lock %s -- <command>, and call '
                            'SELECT tablelock.use_lock(''%s'', ''<token>'') first.',
                            table_name, table_name);
    END IF;
  END IF;
  INSERT INTO "tablelock"."change_set"
    (table_name, kind, token, actor, db_role, application_name, reverts_change_set_id,
     approved_by, change_request_id, row_scope)
  VALUES (table_name,
          CASE WHEN NOT held THEN 'unlocked_write'
               WHEN marked AND mark.approved_by IS NOT NULL
                    AND marked_request.effective_at IS NOT NULL THEN 'scheduled'
               WHEN label.kind IS NOT NULL THEN label.kind
               ELSE 'locked_write' END::"tablelock"."ChangeKind",
          CASE WHEN held THEN shown END,
          CASE WHEN held THEN coalesce(scope.editor, lock.editor) END,
          session_user, nullif(current_setting('application_name', true), ''),
          CASE WHEN held THEN label.reverts_change_set_id END,
          CASE WHEN held AND marked THEN mark.approved_by END,
          CASE WHEN held AND marked AND mark.approved_by IS NOT NULL THEN mark.change_request_id END,
          coalesce(CASE WHEN held THEN scope.rows END, '{}'))
  RETURNING id INTO found_id;
  IF held AND NOT marked AND label.kind IS NULL THEN
    PERFORM "tablelock"."queue_commit_hook"();
  END IF;
  RETURN found_id;
END;
$$;
