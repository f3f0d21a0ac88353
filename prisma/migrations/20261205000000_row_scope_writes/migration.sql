-- Row scopes write through the write guard (issue 41, outcomes 6 and 7; docs/decisions/0021).
--
-- use_lock accepts the token of a live row scope of the table as well as the table's own. A
-- transaction under a scope's token may write only rows whose row-lock column (the policy's
-- row_lock_column, else the single-column primary key) has one of the scope's values, before
-- and after each change: every statement's written values (its transition tables' column, old
-- and new) are judged after it, by fence_row_scopes. A value outside the scope is:
--   - refused (TL007, naming the value and who holds it, if anyone) for tablelock's own saves,
--     imports and reverts whatever the guard, and for any write under ENFORCE;
--   - under RECORD, another writer's write: let through, its change set kept as an unlocked
--     write (the scope's token and values stay on it) naming the scopes whose rows it wrote.
-- A write with no token to a table with row scopes is refused under ENFORCE as before (TL002,
-- now naming the scopes' holders); under RECORD its change set names the scopes it broke
-- (`broken_scopes`, and `brokenScopes` in its lock event). A scope write is fenced at commit
-- like a whole-table locked write: its row_lock row share-locked, the scope still live.
--
-- Values are compared as text (`column::text`), as acquireRowScope stores them: a row-lock
-- column is text, a whole number, a date, a uuid or a boolean, whose text is one per value
-- (dates in the ISO style, Postgres's default DateStyle).
--
-- Errors, as in migration write_guard_functions, and:
--   TL007  a write under a row scope's token to a row outside the scope

-- Empty arrays for none, as Prisma's lists are never null.
ALTER TABLE "tablelock"."change_set" ADD COLUMN "row_scope" TEXT[] NOT NULL DEFAULT '{}';
ALTER TABLE "tablelock"."change_set" ADD COLUMN "broken_scopes" BIGINT[] NOT NULL DEFAULT '{}';

-- Whether a row scope holds now (on the clock): its lease not run out and, with a lease, its
-- holder not idle past the table's idle limit (as lock_holds); false for none (a record of nulls).
CREATE FUNCTION "tablelock"."scope_holds"(rl "tablelock"."row_lock") RETURNS boolean
LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
  SELECT rl.fencing_token IS NOT NULL AND coalesce(rl.lease_expires_at > clock_timestamp(), true)
     AND NOT coalesce(rl.lease_expires_at IS NOT NULL
       AND rl.last_active_at + make_interval(secs => (
             SELECT coalesce(p.idle_limit_seconds, s.idle_limit_seconds)
             FROM "tablelock"."lock_settings" AS s
             LEFT JOIN "tablelock"."table_policy" AS p ON p.table_name = rl.table_name)) <= clock_timestamp(),
       false)
$$;

-- Who holds live row scopes of `table_name`, for messages; null when nobody does.
CREATE FUNCTION "tablelock"."scope_holders"(table_name text) RETURNS text
LANGUAGE sql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
  SELECT string_agg(DISTINCT rl.editor, ', ' ORDER BY rl.editor) FROM "tablelock"."row_lock" AS rl
  WHERE rl.table_name = scope_holders.table_name AND "tablelock"."scope_holds"(rl)
$$;

-- The column whose values row scopes of a table name (packages/lock's readRowLockColumn asks
-- this too): the policy's, else the primary key when it is one column; null otherwise.
CREATE FUNCTION "tablelock"."row_lock_column"(relid oid, table_name text) RETURNS text
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT coalesce(
    (SELECT p.row_lock_column FROM "tablelock"."table_policy" AS p
     WHERE p.table_name = row_lock_column.table_name),
    (SELECT min(a.attname)::text FROM pg_index AS i
     JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
     WHERE i.indisprimary AND i.indnkeyatts = 1 AND i.indrelid = relid))
$$;

-- Judges the values of the row-lock column a statement wrote (`touched`, old and new) against
-- its transaction's change set of `table_name`: see the top of this file.
CREATE FUNCTION "tablelock"."fence_row_scopes"(change_set_id bigint, table_name text, guard text,
                                               scope_column text, touched text[]) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  cs "tablelock"."change_set";
  outside text;
  holder text;
  broken bigint[];
BEGIN
  SELECT * INTO cs FROM "tablelock"."change_set" AS c WHERE c.id = change_set_id;
  IF cardinality(cs.row_scope) > 0 AND cs.kind <> 'unlocked_write' THEN
    SELECT v INTO outside FROM unnest(touched) AS v
      WHERE v IS NULL OR NOT v = ANY (cs.row_scope) ORDER BY v NULLS FIRST LIMIT 1;
    IF NOT found THEN
      RETURN;
    END IF;
    IF cs.kind <> 'locked_write' OR guard = 'ENFORCE' THEN
      SELECT rl.editor INTO holder FROM "tablelock"."row_lock" AS rl
        WHERE rl.table_name = fence_row_scopes.table_name AND outside = ANY (rl.rows)
          AND rl.fencing_token <> cs.token AND "tablelock"."scope_holds"(rl);
      RAISE EXCEPTION 'tablelock: a row of % with % % is outside the row scope of token % (%): %.',
        table_name, scope_column, coalesce(outside, 'null'), cs.token,
        array_to_string(cs.row_scope, ', '),
        CASE WHEN holder IS NOT NULL THEN format('%s holds it', holder)
             ELSE 'nobody holds it' END
        USING ERRCODE = 'TL007', COLUMN = scope_column, TABLE = table_name,
              HINT = format('A write under a row scope keeps to rows whose %s is one of its values, '
                            'before and after the change; take a scope of the others: '
                            'tablelock lock %s --rows <values> -- <command>.',
                            scope_column, table_name);
    END IF;
    UPDATE "tablelock"."change_set" AS c SET kind = 'unlocked_write' WHERE c.id = change_set_id;
  END IF;
  SELECT array_agg(rl.fencing_token ORDER BY rl.fencing_token) INTO broken
  FROM "tablelock"."row_lock" AS rl
  WHERE rl.table_name = fence_row_scopes.table_name AND rl.rows && touched
    AND rl.fencing_token IS DISTINCT FROM cs.token AND "tablelock"."scope_holds"(rl);
  IF broken IS NOT NULL THEN
    UPDATE "tablelock"."change_set" AS c
    SET broken_scopes = ARRAY(SELECT DISTINCT t FROM unnest(c.broken_scopes || broken) AS t
                              ORDER BY t)
    WHERE c.id = change_set_id;
  END IF;
END;
$$;
REVOKE EXECUTE ON FUNCTION "tablelock"."fence_row_scopes"(bigint, text, text, text, text[]) FROM PUBLIC;

-- How a lock ended, as before (migration outside_transactions), and: a row scope's take-over is
-- recorded under the scope's own token (details.rows), a table's under the new one.
CREATE OR REPLACE FUNCTION "tablelock"."lock_end"(table_name text, token bigint) RETURNS text
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  ended record;
  lock "tablelock"."table_lock";
  because text;
BEGIN
  SELECT e.action::text AS action, e.actor, e.reason INTO ended FROM "tablelock"."lock_event" AS e
    WHERE e.table_name = lock_end.table_name AND e.token IS NOT NULL
      AND (e.token = lock_end.token AND e.action IN ('release', 'expire', 'force_release')
           OR e.token = lock_end.token AND e.action = 'take_over' AND e.details ? 'rows'
           OR e.token > lock_end.token AND e.action = 'take_over' AND NOT coalesce(e.details ? 'rows', false))
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

-- What an unlocked write's lock event says of row scopes: the token it showed and its scope's
-- values (a write that went outside its scope), and the scopes whose rows it wrote.
CREATE FUNCTION "tablelock"."broken_scopes_details"(cs "tablelock"."change_set") RETURNS jsonb
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT jsonb_strip_nulls(jsonb_build_object(
    'token', cs.token::text, 'rowScope', to_jsonb(nullif(cs.row_scope, '{}')),
    'brokenScopes', to_jsonb(nullif(cs.broken_scopes, '{}')::text[])))
$$;

-- As before (migration outside_transactions), and: a live row scope's token of the table is
-- accepted too.
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

-- As before (migration outside_transactions), and: a row scope's token holds while the scope
-- does; its change set keeps the scope's values (`row_scope`) and its editor as the actor.
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

-- As before (migration write_guard_counts_after_rows), then the row scopes' fence.
CREATE OR REPLACE FUNCTION "tablelock"."guard_write"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  change_set_id bigint := "tablelock"."guard_change_set"(TG_TABLE_NAME, TG_ARGV[0]);
  shape record;
  scope_column text;
  touched text[];
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

-- As before (migration write_guard_counts_after_rows), then the row scopes' fence (a truncate
-- writes every row).
CREATE OR REPLACE FUNCTION "tablelock"."guard_truncate"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  change_set_id bigint := "tablelock"."guard_change_set"(TG_TABLE_NAME, TG_ARGV[0]);
  shape record;
  scope_column text;
  touched text[];
BEGIN
  SELECT * INTO shape FROM "tablelock"."guard_row_json"(TG_RELID);
  EXECUTE format($sql$
    INSERT INTO "tablelock"."row_change" (change_set_id, table_name, row_key, operation, old_values)
    SELECT $1, $2, %s, 'delete', %s FROM ONLY %I.%I AS r$sql$,
    shape.key, shape.whole, TG_TABLE_SCHEMA, TG_TABLE_NAME)
    USING change_set_id, TG_TABLE_NAME;
  UPDATE "tablelock"."change_set" SET counts_pending = true
  WHERE id = change_set_id AND NOT counts_pending;
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

-- As before (migration write_guard_counts_after_rows), with what the change set says of row
-- scopes in its lock event.
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

-- As before (migration outside_transactions), and: a write under a row scope is fenced by the
-- scope's own row.
CREATE OR REPLACE FUNCTION "tablelock"."fence_locked_writes"() RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  written record;
  lock "tablelock"."table_lock";
  scope "tablelock"."row_lock";
BEGIN
  IF NOT EXISTS (SELECT 1 FROM "tablelock"."change_set" AS cs
                 WHERE cs.txid = pg_current_xact_id() AND cs.kind = 'locked_write') THEN
    RETURN;
  END IF;
  PERFORM 1 FROM "tablelock"."table_lock" AS tl
  WHERE tl.table_name IN (SELECT cs.table_name FROM "tablelock"."change_set" AS cs
                          WHERE cs.txid = pg_current_xact_id() AND cs.kind = 'locked_write'
                            AND cardinality(cs.row_scope) = 0)
  ORDER BY tl.table_name FOR SHARE;
  -- A scope's own row: its release, force release or expiry (a delete of it) waits for the
  -- commit, or committed first and is seen below.
  PERFORM 1 FROM "tablelock"."row_lock" AS rl
  WHERE rl.fencing_token IN (SELECT cs.token FROM "tablelock"."change_set" AS cs
                             WHERE cs.txid = pg_current_xact_id() AND cs.kind = 'locked_write'
                               AND cardinality(cs.row_scope) > 0)
  ORDER BY rl.fencing_token FOR SHARE;
  FOR written IN SELECT cs.table_name, cs.token, cs.row_scope FROM "tablelock"."change_set" AS cs
                 WHERE cs.txid = pg_current_xact_id() AND cs.kind = 'locked_write'
                 ORDER BY cs.table_name LOOP
    IF cardinality(written.row_scope) > 0 THEN
      SELECT * INTO scope FROM "tablelock"."row_lock" AS rl
        WHERE rl.fencing_token = written.token AND rl.table_name = written.table_name;
      IF NOT "tablelock"."scope_holds"(scope) THEN
        PERFORM "tablelock"."refuse_ended_lock"(written.table_name, written.token);
      END IF;
      CONTINUE;
    END IF;
    SELECT * INTO lock FROM "tablelock"."table_lock" AS tl WHERE tl.table_name = written.table_name;
    IF lock.fencing_token IS DISTINCT FROM written.token OR NOT "tablelock"."lock_holds"(lock) THEN
      PERFORM "tablelock"."refuse_ended_lock"(written.table_name, written.token);
    END IF;
  END LOOP;
END;
$$;
