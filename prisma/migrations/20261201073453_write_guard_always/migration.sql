-- The write guard fires for every session (issue 38). A session with
-- session_replication_role = replica fires only ALWAYS and REPLICA triggers: logical
-- replication's apply, pg_restore --disable-triggers, and since PG 15 any role granted SET on
-- that setting wrote a guarded table with neither guard nor history. The guard's triggers are
-- now installed ENABLE ALWAYS (which needs the table's ownership: ALTER TABLE), and the drift
-- check (packages/master-data/src/guard/guardDrift.ts) counts a trigger that is not ALWAYS as
-- not installed, so the API's sync at start makes the triggers already installed ALWAYS; this
-- migration does not touch master tables, which tablelock may not own.
--
-- Replica sessions of members of the role `tablelock_replication` (which the operator creates
-- and grants, e.g. to a subscription's owner) pass ENFORCE, kept as unlocked writes. Superusers
-- are members of every role.
--
-- The triggers on tablelock's own tables that finish and announce a change set fire ALWAYS too,
-- so that a replica session's write is counted, announced and in the outbox like any other.
ALTER TABLE "tablelock"."change_set"
  ENABLE ALWAYS TRIGGER "change_set_finish", ENABLE ALWAYS TRIGGER "change_set_outbox";
ALTER TABLE "tablelock"."lock_event" ENABLE ALWAYS TRIGGER "lock_event_outbox";
ALTER TABLE "tablelock"."outbox_event" ENABLE ALWAYS TRIGGER "outbox_event_order";

-- As before, and: at ENFORCE a replica session of a member of tablelock_replication passes.
CREATE OR REPLACE FUNCTION "tablelock"."guard_change_set"(table_name text, guard text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  found_id bigint;
  lock "tablelock"."table_lock";
  shown bigint := (coalesce(nullif(current_setting('tablelock.tokens', true), ''), '{}')::jsonb
                   ->> guard_change_set.table_name)::bigint;
  own_kind text := nullif(current_setting('tablelock.change_kind', true), '');
  reverts bigint := nullif(current_setting('tablelock.reverts', true), '')::bigint;
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
  SELECT cs.id INTO found_id FROM "tablelock"."change_set" AS cs
    WHERE cs.txid = pg_current_xact_id() AND cs.table_name = guard_change_set.table_name;
  IF found THEN RETURN found_id; END IF;
  SELECT * INTO lock FROM "tablelock"."table_lock" AS tl
    WHERE tl.table_name = guard_change_set.table_name FOR SHARE;
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
               WHEN own_kind IN ('save', 'import', 'revert') THEN own_kind
               ELSE 'locked_write' END::"tablelock"."ChangeKind",
          CASE WHEN held THEN shown END, CASE WHEN held THEN lock.editor END,
          session_user, nullif(current_setting('application_name', true), ''),
          CASE WHEN held AND own_kind = 'revert' THEN reverts END,
          CASE WHEN held AND marked THEN mark.approved_by END,
          CASE WHEN held AND marked AND mark.approved_by IS NOT NULL THEN mark.change_request_id END)
  RETURNING id INTO found_id;
  RETURN found_id;
END;
$$;

-- As before, each trigger ENABLE ALWAYS. Without the table's ownership that fails as a whole
-- (insufficient_privilege): no trigger is left that a replica session would pass.
CREATE OR REPLACE FUNCTION "tablelock"."install_write_guard"(schema text, table_name text, guard text)
RETURNS text LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  target text := format('%I.%I', schema, table_name);
BEGIN
  EXECUTE format('DROP TRIGGER IF EXISTS tablelock_guard_insert ON %s', target);
  EXECUTE format('DROP TRIGGER IF EXISTS tablelock_guard_update ON %s', target);
  EXECUTE format('DROP TRIGGER IF EXISTS tablelock_guard_delete ON %s', target);
  EXECUTE format('DROP TRIGGER IF EXISTS tablelock_guard_truncate ON %s', target);
  IF guard IN ('RECORD', 'ENFORCE') THEN
    EXECUTE format('CREATE TRIGGER tablelock_guard_insert AFTER INSERT ON %s '
      'REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT '
      'EXECUTE FUNCTION "tablelock"."guard_write"(%L)', target, guard);
    EXECUTE format('CREATE TRIGGER tablelock_guard_update AFTER UPDATE ON %s '
      'REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT '
      'EXECUTE FUNCTION "tablelock"."guard_write"(%L)', target, guard);
    EXECUTE format('CREATE TRIGGER tablelock_guard_delete AFTER DELETE ON %s '
      'REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT '
      'EXECUTE FUNCTION "tablelock"."guard_write"(%L)', target, guard);
    EXECUTE format('CREATE TRIGGER tablelock_guard_truncate BEFORE TRUNCATE ON %s '
      'FOR EACH STATEMENT EXECUTE FUNCTION "tablelock"."guard_truncate"(%L)', target, guard);
    EXECUTE format('ALTER TABLE %s ENABLE ALWAYS TRIGGER tablelock_guard_insert, '
      'ENABLE ALWAYS TRIGGER tablelock_guard_update, ENABLE ALWAYS TRIGGER tablelock_guard_delete, '
      'ENABLE ALWAYS TRIGGER tablelock_guard_truncate', target);
  END IF;
  RETURN NULL;
EXCEPTION WHEN insufficient_privilege OR object_not_in_prerequisite_state THEN
  RETURN SQLERRM;
END;
$$;
REVOKE EXECUTE ON FUNCTION "tablelock"."install_write_guard"(text, text, text) FROM PUBLIC;
