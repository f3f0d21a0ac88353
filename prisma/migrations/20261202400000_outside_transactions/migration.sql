-- An outside transaction no longer holds the lock (issue 40, item 4). use_lock and the guard's
-- trigger share-locked the lock's registry row until the writing transaction ended. A database
-- login that called use_lock and left its transaction open so made an admin's force release
-- (an update of that row) wait and fail after its 5 s, wrote on after its lease had ended (the
-- lease was judged at the transaction's start, and nothing could expire the row), and, even
-- with a write that changed nothing and no token, kept acquisitions of the table and of the
-- tables referencing it from being granted. And a transaction that set its constraints
-- IMMEDIATE drew its outbox positions at its first write, keeping the table's outbox stream row
-- locked until it ended: every lock change of the table then waited for it at its commit.
--
-- Now:
--   - use_lock and the trigger read the registry row without locking it. A write under
--     use_lock's token (a `locked_write`) is judged again at each later statement of its
--     transaction and at its commit: the token must still be the table's current one, its
--     lease not run out, its holder not idle past the limit, on the clock of that moment. A
--     transaction whose lock ended fails there (TL006), saying how it ended (force-released by
--     whom, taken over, released, expired, its lease ran out);
--   - at commit the check share-locks the registry rows of the tables written under use_lock
--     (in name order) until the commit is done: a force release, take-over or expiry either
--     committed first, and the check sees it, or waits for the commit, which is brief. A write
--     under an old token so never commits after a newer token was granted;
--   - tablelock's work at commit (that check, then the outbox's positions) runs once per
--     transaction from a commit hook that runs at the commit whatever the transaction does with
--     SET CONSTRAINTS: fired early, it only queues itself again (see run_commit_hook).
-- tablelock's own saves are not `locked_write`s: they share-lock the row for their transaction
-- (assertHoldsLock), so that a release waits for a save in flight, as before.
--
-- Errors, as in migration write_guard_functions:
--   TL006  a write, or a commit, under a use_lock token whose lock has ended meanwhile

-- Whether the lock holds now: on the clock, not at the transaction's start, which may be long
-- before (an outside transaction's use_lock, its next write, its commit).
CREATE OR REPLACE FUNCTION "tablelock"."lock_holds"(tl "tablelock"."table_lock") RETURNS boolean
LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
  SELECT tl.status = 'editing' AND coalesce(tl.lease_expires_at > clock_timestamp(), true)
     AND NOT coalesce(tl.lease_expires_at IS NOT NULL
       AND coalesce(tl.last_active_at, tl.acquired_at) + make_interval(secs => (
             SELECT coalesce(p.idle_limit_seconds, s.idle_limit_seconds)
             FROM "tablelock"."lock_settings" AS s
             LEFT JOIN "tablelock"."table_policy" AS p ON p.table_name = tl.table_name)) <= clock_timestamp(),
       false)
$$;

-- How the lock of `table_name` under `token` ended, in words (as packages/lock's
-- describeLostLock): from the lock's history, else from the lock as it is now.
CREATE FUNCTION "tablelock"."lock_end"(table_name text, token bigint) RETURNS text
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  ended record;
  lock "tablelock"."table_lock";
  because text;
BEGIN
  SELECT e.action::text AS action, e.actor, e.reason INTO ended FROM "tablelock"."lock_event" AS e
    WHERE e.table_name = lock_end.table_name AND e.token IS NOT NULL
      AND (e.token = lock_end.token AND e.action IN ('release', 'expire', 'force_release')
           OR e.token > lock_end.token AND e.action = 'take_over')
    ORDER BY e.id LIMIT 1;
  because := CASE WHEN ended.reason IS NOT NULL THEN format(' (reason: %s)', ended.reason) ELSE '' END;
  CASE ended.action
    WHEN 'force_release' THEN RETURN format('%s force-released it%s', ended.actor, because);
    WHEN 'take_over' THEN RETURN format('%s took it over%s', ended.actor, because);
    WHEN 'release' THEN RETURN 'it was released';
    WHEN 'expire' THEN
      RETURN CASE WHEN ended.reason = 'idle' THEN 'its holder was idle for longer than its idle limit'
                  ELSE 'its lease ran out without renewal' END;
    ELSE NULL;
  END CASE;
  SELECT * INTO lock FROM "tablelock"."table_lock" AS tl WHERE tl.table_name = lock_end.table_name;
  IF lock.fencing_token IS DISTINCT FROM token THEN
    RETURN 'it is not the table''s current lock';
  ELSIF lock.lease_expires_at <= clock_timestamp() THEN
    RETURN format('its lease ran out at %s', lock.lease_expires_at);
  END IF;
  RETURN 'its holder was idle for longer than its idle limit';
END;
$$;
REVOKE EXECUTE ON FUNCTION "tablelock"."lock_end"(text, bigint) FROM PUBLIC;

CREATE FUNCTION "tablelock"."refuse_ended_lock"(table_name text, token bigint) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  RAISE EXCEPTION 'tablelock: the lock of % under token % has ended: %. This transaction''s writes to % cannot commit.',
    table_name, token, "tablelock"."lock_end"(table_name, token), table_name
    USING ERRCODE = 'TL006',
          HINT = format('Roll back; take the lock again (tablelock lock %s -- <command>) and write '
                        'under its new token.', table_name);
END;
$$;
REVOKE EXECUTE ON FUNCTION "tablelock"."refuse_ended_lock"(text, bigint) FROM PUBLIC;

-- At commit: this transaction's writes under use_lock hold their locks still. Their registry
-- rows stay share-locked until the commit is done, taken in name order as every lock change
-- takes them (so never in a deadlock with one), and before the outbox's stream rows, which a
-- lock change locks after its registry rows too. A transaction at REPEATABLE READ or above
-- whose lock changed since its snapshot cannot lock the row: Postgres refuses its commit then
-- (serialization_failure, 40001). It is not turned into TL006: catching it would take the row
-- lock in a subtransaction, whose session registry_row_holders cannot name.
CREATE FUNCTION "tablelock"."fence_locked_writes"() RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  written record;
  lock "tablelock"."table_lock";
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "tablelock"."change_set" AS cs
                 WHERE cs.txid = pg_current_xact_id() AND cs.kind = 'locked_write') THEN
    RETURN;
  END IF;
  PERFORM 1 FROM "tablelock"."table_lock" AS tl
  WHERE tl.table_name IN (SELECT cs.table_name FROM "tablelock"."change_set" AS cs
                          WHERE cs.txid = pg_current_xact_id() AND cs.kind = 'locked_write')
  ORDER BY tl.table_name FOR SHARE;
  FOR written IN SELECT cs.table_name, cs.token FROM "tablelock"."change_set" AS cs
                 WHERE cs.txid = pg_current_xact_id() AND cs.kind = 'locked_write'
                 ORDER BY cs.table_name LOOP
    SELECT * INTO lock FROM "tablelock"."table_lock" AS tl WHERE tl.table_name = written.table_name;
    IF lock.fencing_token IS DISTINCT FROM written.token OR NOT "tablelock"."lock_holds"(lock) THEN
      PERFORM "tablelock"."refuse_ended_lock"(written.table_name, written.token);
    END IF;
  END LOOP;
END;
$$;
REVOKE EXECUTE ON FUNCTION "tablelock"."fence_locked_writes"() FROM PUBLIC;

-- The outbox's positions for this transaction's events (as outbox_order did): the stream rows
-- of their tables locked in name order until the commit is done, positions drawn meanwhile, so
-- that per table they follow commit order.
CREATE FUNCTION "tablelock"."order_outbox"() RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  tables text[];
BEGIN
  SELECT array_agg(DISTINCT table_name ORDER BY table_name) INTO tables
  FROM "tablelock"."outbox_event"
  WHERE txid = pg_current_xact_id() AND position IS NULL;
  IF tables IS NULL THEN RETURN; END IF;
  INSERT INTO "tablelock"."outbox_stream" (table_name)
  SELECT unnest(tables) ORDER BY 1 ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "tablelock"."outbox_stream" WHERE table_name = ANY (tables)
  ORDER BY table_name FOR UPDATE;
  UPDATE "tablelock"."outbox_event" AS o SET position = drawn.position
  FROM (SELECT id, nextval('"tablelock"."outbox_position"') AS position
        FROM (SELECT id FROM "tablelock"."outbox_event"
              WHERE txid = pg_current_xact_id() AND position IS NULL ORDER BY id) AS waiting
       ) AS drawn
  WHERE o.id = drawn.id;
  PERFORM pg_notify('tablelock_outbox', 'events');
END;
$$;
REVOKE EXECUTE ON FUNCTION "tablelock"."order_outbox"() FROM PUBLIC;

-- One row per transaction that has work for its commit; gone when the commit has done it.
-- `phase`: `queued` (the hook waits for the commit), `echo` and `heard` (the hook is finding out
-- whether it fires at the commit, see run_commit_hook).
CREATE TABLE "tablelock"."commit_hook" (
    "id" BIGINT GENERATED ALWAYS AS IDENTITY,
    "txid" XID8 NOT NULL DEFAULT pg_current_xact_id(),
    "phase" TEXT NOT NULL DEFAULT 'queued',

    CONSTRAINT "commit_hook_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "commit_hook_txid_key" UNIQUE ("txid"),
    CONSTRAINT "commit_hook_phase" CHECK ("phase" IN ('queued', 'echo', 'heard'))
);
REVOKE ALL ON "tablelock"."commit_hook" FROM PUBLIC;

-- Makes sure the commit runs tablelock's work for this transaction.
CREATE FUNCTION "tablelock"."queue_commit_hook"() RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "tablelock"."commit_hook" WHERE txid = pg_current_xact_id()) THEN
    INSERT INTO "tablelock"."commit_hook" DEFAULT VALUES;
  END IF;
END;
$$;
REVOKE EXECUTE ON FUNCTION "tablelock"."queue_commit_hook"() FROM PUBLIC;

-- A deferred trigger fires at commit unless the transaction makes it fire earlier (SET
-- CONSTRAINTS ALL, or this one by name, IMMEDIATE): then it fires there and then, and nothing
-- is left for the commit. So the hook first finds out which it is: it queues its own echo, which
-- fires at once (while the statement that queued it ends) exactly when the trigger is IMMEDIATE
-- now. At the commit the trigger is deferred: only the commit fires deferred triggers, since SET
-- CONSTRAINTS … IMMEDIATE makes those it names immediate before firing them. Fired early, the
-- hook sets itself DEFERRED by name (which outranks a later SET CONSTRAINTS ALL DEFERRED or
-- IMMEDIATE until the next such IMMEDIATE, when it does so again) and queues itself again.
CREATE FUNCTION "tablelock"."run_commit_hook"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  now_phase text;
BEGIN
  IF NEW.phase = 'echo' THEN
    -- Fired at the commit instead, after the hook's work, it finds nothing to mark.
    UPDATE "tablelock"."commit_hook" AS h SET phase = 'heard' WHERE h.id = NEW.id AND h.phase = 'echo';
    RETURN NULL;
  END IF;
  UPDATE "tablelock"."commit_hook" AS h SET phase = 'echo' WHERE h.id = NEW.id;
  SELECT h.phase INTO now_phase FROM "tablelock"."commit_hook" AS h WHERE h.id = NEW.id;
  IF now_phase IS NULL THEN
    RETURN NULL;
  ELSIF now_phase = 'heard' THEN
    SET CONSTRAINTS "tablelock"."commit_hook_run" DEFERRED;
    UPDATE "tablelock"."commit_hook" AS h SET phase = 'queued' WHERE h.id = NEW.id;
    RETURN NULL;
  END IF;
  PERFORM "tablelock"."fence_locked_writes"();
  PERFORM "tablelock"."order_outbox"();
  -- Work that a later trigger of the commit adds (an unlocked write's lock event) queues a hook
  -- of its own.
  DELETE FROM "tablelock"."commit_hook" AS h WHERE h.id = NEW.id;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER "commit_hook_run" AFTER INSERT OR UPDATE OF "phase" ON "tablelock"."commit_hook"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.phase IN ('queued', 'echo'))
  EXECUTE FUNCTION "tablelock"."run_commit_hook"();
ALTER TABLE "tablelock"."commit_hook" ENABLE ALWAYS TRIGGER "commit_hook_run";

-- The outbox's ordering runs from the commit hook, once per transaction, and only at the commit.
CREATE FUNCTION "tablelock"."outbox_event_commit"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM "tablelock"."queue_commit_hook"();
  RETURN NULL;
END;
$$;
DROP TRIGGER "outbox_event_order" ON "tablelock"."outbox_event";
DROP FUNCTION "tablelock"."outbox_order"();
CREATE TRIGGER "outbox_event_commit" AFTER INSERT ON "tablelock"."outbox_event"
  FOR EACH STATEMENT EXECUTE FUNCTION "tablelock"."outbox_event_commit"();
ALTER TABLE "tablelock"."outbox_event" ENABLE ALWAYS TRIGGER "outbox_event_commit";

-- As before (migration write_guard_four_eyes), without locking the registry row: the token is
-- judged again at each write and at the commit.
CREATE OR REPLACE FUNCTION "tablelock"."use_lock"(table_name text, token text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  lock "tablelock"."table_lock";
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
    RAISE EXCEPTION 'tablelock: token % is not the current lock of %.', token, table_name
      USING ERRCODE = 'TL001',
            DETAIL = CASE WHEN "tablelock"."lock_holds"(lock)
                          THEN format('%s holds %s under another token.', lock.editor, table_name)
                          ELSE format('Nobody holds %s now.', table_name) END,
            HINT = format('Take the lock again: tablelock lock %s -- <command>', table_name);
  END IF;
  SELECT r.id INTO pending_id FROM "tablelock"."change_request" AS r
    WHERE r.table_name = use_lock.table_name AND r.state = 'pending';
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

-- As before (migration write_guard_own_labels), and: the registry row is read, not locked; a
-- write shown a token whose lock has ended since fails (TL006) rather than pass as an unlocked
-- write; each later statement of a `locked_write` judges its token again; and the commit hook
-- judges it at the commit.
CREATE OR REPLACE FUNCTION "tablelock"."guard_change_set"(table_name text, guard text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  found_set "tablelock"."change_set";
  found_id bigint;
  lock "tablelock"."table_lock";
  shown bigint := (coalesce(nullif(current_setting('tablelock.tokens', true), ''), '{}')::jsonb
                   ->> guard_change_set.table_name)::bigint;
  label "tablelock"."write_label";
  pending "tablelock"."change_request";
  has_pending boolean;
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
    IF found_set.kind = 'locked_write' THEN
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
  SELECT * INTO pending FROM "tablelock"."change_request" AS r
    WHERE r.table_name = guard_change_set.table_name AND r.state = 'pending';
  has_pending := found;
  SELECT * INTO mark FROM "tablelock"."request_write" AS w
    WHERE w.txid = pg_current_xact_id() AND w.table_name = guard_change_set.table_name;
  marked := found;
  needs_approval := coalesce((SELECT p.changes_need_approval FROM "tablelock"."table_policy" AS p
                              WHERE p.table_name = guard_change_set.table_name), false);
  IF marked THEN
    shown := pending.token;
    held := coalesce(has_pending AND pending.id = mark.change_request_id
                     AND lock.fencing_token = shown AND "tablelock"."lock_holds"(lock), false);
  ELSE
    held := coalesce(shown IS NOT NULL AND lock.fencing_token = shown
                     AND "tablelock"."lock_holds"(lock) AND NOT has_pending AND NOT needs_approval,
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
     approved_by, change_request_id)
  VALUES (table_name,
          CASE WHEN NOT held THEN 'unlocked_write'
               WHEN label.kind IS NOT NULL THEN label.kind
               ELSE 'locked_write' END::"tablelock"."ChangeKind",
          CASE WHEN held THEN shown END, CASE WHEN held THEN lock.editor END,
          session_user, nullif(current_setting('application_name', true), ''),
          CASE WHEN held THEN label.reverts_change_set_id END,
          CASE WHEN held AND marked THEN mark.approved_by END,
          CASE WHEN held AND marked AND mark.approved_by IS NOT NULL THEN mark.change_request_id END)
  RETURNING id INTO found_id;
  IF held AND NOT marked AND label.kind IS NULL THEN
    PERFORM "tablelock"."queue_commit_hook"();
  END IF;
  RETURN found_id;
END;
$$;

-- The sessions whose transactions hold a row lock on a registry row of `tables`: who keeps a
-- lock change of them waiting. A row's locker is its xmax, a transaction or a multixact of
-- several (pg_get_multixact_members fails for a plain transaction id); only those still running
-- are sessions, and only one holding a lock on the registry can have locked its rows. A row
-- locked inside a savepoint has the subtransaction's id, which Postgres does not map to its
-- session: that holder goes unnamed. Without pg_read_all_stats, Postgres shows another role's
-- session without its xact_start.
CREATE FUNCTION "tablelock"."registry_row_holders"(tables text[])
RETURNS TABLE (pid integer, db_role text, application_name text, since timestamptz)
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  locker xid;
  lockers xid[] := '{}';
BEGIN
  FOR locker IN SELECT tl.xmax FROM "tablelock"."table_lock" AS tl
                WHERE tl.table_name = ANY (tables) AND tl.xmax <> '0'::xid LOOP
    lockers := lockers || locker;
    BEGIN
      lockers := lockers || ARRAY(SELECT m.xid FROM pg_get_multixact_members(locker) AS m);
    EXCEPTION WHEN internal_error OR invalid_parameter_value THEN
      NULL;
    END;
  END LOOP;
  RETURN QUERY
    SELECT a.pid, a.usename::text, nullif(a.application_name, ''), a.xact_start
    FROM pg_stat_activity AS a
    WHERE a.pid <> pg_backend_pid()
      AND EXISTS (SELECT 1 FROM pg_locks AS l
                  WHERE l.pid = a.pid AND l.granted AND l.locktype = 'transactionid'
                    AND l.transactionid = ANY (lockers))
      AND EXISTS (SELECT 1 FROM pg_locks AS l
                  WHERE l.pid = a.pid AND l.granted AND l.locktype = 'relation'
                    AND l.relation = '"tablelock"."table_lock"'::regclass)
    ORDER BY a.xact_start, a.pid;
END;
$$;
REVOKE EXECUTE ON FUNCTION "tablelock"."registry_row_holders"(text[]) FROM PUBLIC;
