-- The write guard's functions (issue 25). The registry sync installs triggers calling them on
-- each master table whose guard is RECORD or ENFORCE (packages/master-data/src/guard). They run
-- as their owner (SECURITY DEFINER) so that any writer's trigger can write the history; their
-- search_path is fixed so that a writer cannot slip its own functions or tables in.
--
-- Errors have SQLSTATEs of tablelock's own class TL (README, "The write guard"):
--   TL001  use_lock was shown a token that is not the table's current one
--   TL002  ENFORCE: a write without the current holder's token
--   TL003  ENFORCE: a write to a table locked as an FK target of a table being edited

-- Whether the editing lock `tl` still holds (lease not run out, holder not idle past its limit,
-- database clock), as packages/lock's assertHoldsLock judges it.
CREATE FUNCTION "tablelock"."lock_holds"(tl "tablelock"."table_lock") RETURNS boolean
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT tl.status = 'editing' AND coalesce(tl.lease_expires_at > now(), true)
     AND NOT coalesce(tl.lease_expires_at IS NOT NULL
       AND coalesce(tl.last_active_at, tl.acquired_at) + make_interval(secs => (
             SELECT coalesce(p.idle_limit_seconds, s.idle_limit_seconds)
             FROM "tablelock"."lock_settings" AS s
             LEFT JOIN "tablelock"."table_policy" AS p ON p.table_name = tl.table_name)) <= now(),
       false)
$$;

-- Shows that this transaction writes `table_name` under the lock whose fencing token is
-- `token`: refused at once (TL001) unless that is the table's current, live acquisition. The
-- lock row stays share-locked until the transaction ends, so a release, expiry or take-over
-- either committed before (and this fails) or waits until this transaction has ended.
CREATE FUNCTION "tablelock"."use_lock"(table_name text, token text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  lock "tablelock"."table_lock";
  shown bigint;
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
  PERFORM set_config('tablelock.tokens',
    (coalesce(nullif(current_setting('tablelock.tokens', true), ''), '{}')::jsonb
      || jsonb_build_object(table_name, token))::text, true);
END;
$$;

-- The change set of this transaction's writes to `table_name`, made by its first write. Judges
-- the write: under ENFORCE one without the current holder's token fails; under RECORD it is an
-- unlocked write. A token is taken from use_lock's setting only after checking it again (the
-- setting itself can be set by anyone).
CREATE FUNCTION "tablelock"."guard_change_set"(table_name text, guard text) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  found_id bigint;
  lock "tablelock"."table_lock";
  shown bigint := (coalesce(nullif(current_setting('tablelock.tokens', true), ''), '{}')::jsonb
                   ->> guard_change_set.table_name)::bigint;
  own_kind text := nullif(current_setting('tablelock.change_kind', true), '');
  reverts bigint := nullif(current_setting('tablelock.reverts', true), '')::bigint;
  held boolean := false;
BEGIN
  SELECT cs.id INTO found_id FROM "tablelock"."change_set" AS cs
    WHERE cs.txid = pg_current_xact_id() AND cs.table_name = guard_change_set.table_name;
  IF found THEN RETURN found_id; END IF;
  SELECT * INTO lock FROM "tablelock"."table_lock" AS tl
    WHERE tl.table_name = guard_change_set.table_name FOR SHARE;
  held := found AND shown IS NOT NULL AND lock.fencing_token = shown AND "tablelock"."lock_holds"(lock);
  IF NOT held AND guard = 'ENFORCE' THEN
    IF lock.status = 'locked' THEN
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
    (table_name, kind, token, actor, db_role, application_name, reverts_change_set_id)
  VALUES (table_name,
          CASE WHEN NOT held THEN 'unlocked_write'
               WHEN own_kind IN ('save', 'import', 'revert') THEN own_kind
               ELSE 'locked_write' END::"tablelock"."ChangeKind",
          CASE WHEN held THEN shown END, CASE WHEN held THEN lock.editor END,
          session_user, nullif(current_setting('application_name', true), ''),
          CASE WHEN held AND own_kind = 'revert' THEN reverts END)
  RETURNING id INTO found_id;
  RETURN found_id;
END;
$$;

-- SQL that makes a row of the table `relid` (alias r) into {"column": value as text}: all its
-- columns, and its primary key (all columns when it has none), as the `rows` query gives them.
CREATE FUNCTION "tablelock"."guard_row_json"(relid oid, OUT whole text, OUT key text)
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  pairs text[];
  key_pairs text[];
BEGIN
  SELECT array_agg(format('%L, r.%I::text', a.attname, a.attname) ORDER BY a.attnum),
         array_agg(format('%L, r.%I::text', a.attname, a.attname) ORDER BY a.attnum)
           FILTER (WHERE a.attnum = ANY (i.indkey))
    INTO pairs, key_pairs
  FROM pg_attribute AS a
  LEFT JOIN pg_index AS i ON i.indrelid = a.attrelid AND i.indisprimary
  WHERE a.attrelid = relid AND a.attnum > 0 AND NOT a.attisdropped;
  whole := "tablelock"."guard_json_object"(pairs);
  key := CASE WHEN key_pairs IS NULL THEN whole ELSE "tablelock"."guard_json_object"(key_pairs) END;
END;
$$;

-- jsonb_build_object takes at most 100 arguments: wide rows are built 50 columns at a time.
CREATE FUNCTION "tablelock"."guard_json_object"(pairs text[]) RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog, pg_temp AS $$
  SELECT coalesce(string_agg(format('jsonb_build_object(%s)', chunk), ' || '), '''{}''::jsonb')
  FROM (SELECT array_to_string(pairs[n:n + 49], ', ') AS chunk
        FROM generate_series(1, cardinality(pairs), 50) AS n) AS chunks
$$;

-- The statement-level trigger on INSERT, UPDATE and DELETE (with transition tables new_rows and
-- old_rows): judges the write and records each row it changed. An update that changes a
-- primary key is recorded as a delete of the old key and an insert of the new one; an update
-- that changed nothing is not recorded.
CREATE FUNCTION "tablelock"."guard_write"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  change_set_id bigint := "tablelock"."guard_change_set"(TG_TABLE_NAME, TG_ARGV[0]);
  shape record;
  counts record;
BEGIN
  SELECT * INTO shape FROM "tablelock"."guard_row_json"(TG_RELID);
  EXECUTE format($sql$
    WITH n AS (SELECT %1$s AS k, %2$s AS v FROM %3$s),
    o AS (SELECT %1$s AS k, %2$s AS v FROM %4$s),
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
    ), written AS (
      INSERT INTO "tablelock"."row_change"
        (change_set_id, table_name, row_key, operation, old_values, new_values)
      SELECT $1, $2, k, operation, old_values, new_values FROM changes
      RETURNING operation
    )
    SELECT count(*) FILTER (WHERE operation = 'insert') AS inserted,
           count(*) FILTER (WHERE operation = 'update') AS updated,
           count(*) FILTER (WHERE operation = 'delete') AS deleted
    FROM written$sql$,
    shape.key, shape.whole,
    CASE WHEN TG_OP = 'DELETE' THEN 'old_rows AS r WHERE false' ELSE 'new_rows AS r' END,
    CASE WHEN TG_OP = 'INSERT' THEN 'new_rows AS r WHERE false' ELSE 'old_rows AS r' END)
    INTO counts USING change_set_id, TG_TABLE_NAME;
  UPDATE "tablelock"."change_set"
  SET rows_inserted = rows_inserted + counts.inserted, rows_updated = rows_updated + counts.updated,
      rows_deleted = rows_deleted + counts.deleted
  WHERE id = change_set_id;
  RETURN NULL;
END;
$$;

-- The BEFORE TRUNCATE trigger: judges the write and records every row as deleted.
CREATE FUNCTION "tablelock"."guard_truncate"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  change_set_id bigint := "tablelock"."guard_change_set"(TG_TABLE_NAME, TG_ARGV[0]);
  shape record;
  deleted int;
BEGIN
  SELECT * INTO shape FROM "tablelock"."guard_row_json"(TG_RELID);
  EXECUTE format($sql$
    INSERT INTO "tablelock"."row_change" (change_set_id, table_name, row_key, operation, old_values)
    SELECT $1, $2, %s, 'delete', %s FROM ONLY %I.%I AS r$sql$,
    shape.key, shape.whole, TG_TABLE_SCHEMA, TG_TABLE_NAME)
    USING change_set_id, TG_TABLE_NAME;
  GET DIAGNOSTICS deleted = ROW_COUNT;
  UPDATE "tablelock"."change_set" SET rows_deleted = rows_deleted + deleted WHERE id = change_set_id;
  RETURN NULL;
END;
$$;

-- At commit, an unlocked write becomes one `unlocked_write` lock event per table and
-- transaction, with its final counts, announced like every lock event (the payload of
-- packages/lock's notifyEvent, with `tables` empty).
CREATE FUNCTION "tablelock"."announce_unlocked_write"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  cs "tablelock"."change_set";
  event "tablelock"."lock_event";
BEGIN
  SELECT * INTO cs FROM "tablelock"."change_set" WHERE id = NEW.id;
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

CREATE CONSTRAINT TRIGGER "change_set_unlocked_write" AFTER INSERT ON "tablelock"."change_set"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (NEW.kind = 'unlocked_write') EXECUTE FUNCTION "tablelock"."announce_unlocked_write"();

-- Installs the guard's four triggers on `schema`.`table_name` at `guard` (RECORD or ENFORCE),
-- or removes them (OFF). Returns null, or why it could not (e.g. no TRIGGER privilege): the
-- caller reports it with the GRANT that fixes it.
CREATE FUNCTION "tablelock"."install_write_guard"(schema text, table_name text, guard text)
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
  END IF;
  RETURN NULL;
EXCEPTION WHEN insufficient_privilege OR object_not_in_prerequisite_state THEN
  RETURN SQLERRM;
END;
$$;

-- Only tablelock itself installs triggers and builds change sets.
REVOKE EXECUTE ON FUNCTION "tablelock"."install_write_guard"(text, text, text) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION "tablelock"."guard_change_set"(text, text) FROM PUBLIC;
