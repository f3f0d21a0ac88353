-- Four eyes for every writer, judged by the trigger (issue 40). use_lock's check of
-- changes_need_approval stopped only writers who called it: `tablelock.tokens` is a setting any
-- session may set, so a login that knew a token set it itself and wrote a table that needs
-- approval as the holder. And use_lock accepted a pending request's token, which any viewer read
-- in the lock history. Now:
--   - on a table whose policy needs approval, a write passes only as the application (or the
--     trial) of a pending change request, marked by write_change_request, which only tablelock's
--     role may call; under RECORD any other write is kept as an unlocked write;
--   - a pending request's token opens neither use_lock nor the trigger (TL004).
-- The mark is a row of request_write, a table no other login may write, rather than a setting,
-- which any session could forge.

CREATE TABLE "tablelock"."request_write" (
    "id" BIGINT GENERATED ALWAYS AS IDENTITY,
    "txid" XID8 NOT NULL DEFAULT pg_current_xact_id(),
    "table_name" TEXT NOT NULL,
    "change_request_id" BIGINT NOT NULL,
    "approved_by" TEXT,

    CONSTRAINT "request_write_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "request_write_txid_table_name_key" UNIQUE ("txid", "table_name")
);
REVOKE ALL ON "tablelock"."request_write" FROM PUBLIC;

-- A mark holds for its own transaction only: it is gone at commit.
CREATE FUNCTION "tablelock"."request_write_done"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  DELETE FROM "tablelock"."request_write" WHERE id = NEW.id;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER "request_write_done" AFTER INSERT ON "tablelock"."request_write"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "tablelock"."request_write_done"();

-- Marks this transaction's writes to the table of change request `request_id` as its application
-- (approved by `approved_by`) or, with null, as its trial (rolled back by the caller). Refused
-- (TL001) unless the request is pending and its token is the table's current, live lock. The
-- request and lock rows stay share-locked until the transaction ends.
CREATE FUNCTION "tablelock"."write_change_request"(request_id bigint, approved_by text)
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
  IF request.state IS DISTINCT FROM 'pending' OR lock.fencing_token IS DISTINCT FROM request.token
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
  SELECT * INTO lock FROM "tablelock"."table_lock" AS tl WHERE tl.table_name = use_lock.table_name
    FOR SHARE;
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

-- As before, and: a write marked by write_change_request is its request's, under the request's
-- token, naming the approver; any other write to a table that needs approval, or whose lock
-- waits with a request, holds no lock (ENFORCE: TL004), whatever `tablelock.tokens` says.
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
  IF NOT held AND guard = 'ENFORCE' THEN
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
