-- Only tablelock labels its own writes (issue 40, item 8). The guard took a write's kind (save,
-- import, revert) and the change a revert undoes from the settings `tablelock.change_kind` and
-- `tablelock.reverts`, which any session may set: another login holding a token kept its write
-- in the history as tablelock's own save, or as a revert of any change, another table's too.
-- Now:
--   - the label is a row of write_label, a table no other login may write, made by
--     label_write, which only tablelock's role may call (as request_write, migration
--     write_guard_four_eyes);
--   - a write made while either setting is set is refused (TL005), whoever makes it: it
--     claims to be what it is not, and its writer learns so at once rather than from the
--     history;
--   - a revert's label must name a change of the table it writes (TL005).
--
-- Errors, as in migration write_guard_functions:
--   TL005  a write labelled by hand (tablelock.change_kind or tablelock.reverts set), or a
--          revert label naming a change of another table

CREATE TABLE "tablelock"."write_label" (
    "id" BIGINT GENERATED ALWAYS AS IDENTITY,
    "txid" XID8 NOT NULL DEFAULT pg_current_xact_id(),
    "table_name" TEXT NOT NULL,
    "kind" "tablelock"."ChangeKind" NOT NULL,
    "reverts_change_set_id" BIGINT,

    CONSTRAINT "write_label_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "write_label_txid_table_name_key" UNIQUE ("txid", "table_name"),
    CONSTRAINT "write_label_own_kind" CHECK ("kind" IN ('save', 'import', 'revert')),
    CONSTRAINT "write_label_reverts_of_revert" CHECK ("reverts_change_set_id" IS NULL OR "kind" = 'revert')
);
REVOKE ALL ON "tablelock"."write_label" FROM PUBLIC;

-- A label holds for its own transaction only: it is gone at commit.
CREATE FUNCTION "tablelock"."write_label_done"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  DELETE FROM "tablelock"."write_label" WHERE id = NEW.id;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER "write_label_done" AFTER INSERT ON "tablelock"."write_label"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "tablelock"."write_label_done"();

-- Labels this transaction's writes to `table_name` as tablelock's own `kind` (save, import or
-- revert; for a revert, of change set `reverts_change_set_id`). The guard uses it only for a
-- write that holds the table's lock: use_lock's token, or a change request's mark.
CREATE FUNCTION "tablelock"."label_write"(table_name text, kind text, reverts_change_set_id bigint)
RETURNS void LANGUAGE sql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  INSERT INTO "tablelock"."write_label" (table_name, kind, reverts_change_set_id)
  VALUES ($1, $2::"tablelock"."ChangeKind", $3)
  ON CONFLICT (txid, table_name) DO UPDATE
    SET kind = EXCLUDED.kind, reverts_change_set_id = EXCLUDED.reverts_change_set_id
$$;
REVOKE EXECUTE ON FUNCTION "tablelock"."label_write"(text, text, bigint) FROM PUBLIC;

-- As before (migration write_guard_always), and: the kind and the change reverted come from
-- the transaction's label, never from a setting; a write while tablelock.change_kind or
-- tablelock.reverts is set fails (TL005), checked at every statement, so that a label set
-- after the transaction's first write fails too.
CREATE OR REPLACE FUNCTION "tablelock"."guard_change_set"(table_name text, guard text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
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
  SELECT cs.id INTO found_id FROM "tablelock"."change_set" AS cs
    WHERE cs.txid = pg_current_xact_id() AND cs.table_name = guard_change_set.table_name;
  IF found THEN RETURN found_id; END IF;
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
               WHEN label.kind IS NOT NULL THEN label.kind
               ELSE 'locked_write' END::"tablelock"."ChangeKind",
          CASE WHEN held THEN shown END, CASE WHEN held THEN lock.editor END,
          session_user, nullif(current_setting('application_name', true), ''),
          CASE WHEN held THEN label.reverts_change_set_id END,
          CASE WHEN held AND marked THEN mark.approved_by END,
          CASE WHEN held AND marked AND mark.approved_by IS NOT NULL THEN mark.change_request_id END)
  RETURNING id INTO found_id;
  RETURN found_id;
END;
$$;
