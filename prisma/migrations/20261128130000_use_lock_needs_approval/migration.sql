-- Four eyes for every writer: on a table whose policy needs approval, use_lock accepts only the
-- token of a pending change request, which only tablelock knows (it writes under it to check a
-- submission and to apply an approval). Any other writer's use_lock fails:
--   TL004  the table's changes need approval: submit a change request
CREATE OR REPLACE FUNCTION "tablelock"."use_lock"(table_name text, token text) RETURNS void
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
  IF EXISTS (SELECT 1 FROM "tablelock"."table_policy" AS p
             WHERE p.table_name = use_lock.table_name AND p.changes_need_approval)
     AND NOT EXISTS (SELECT 1 FROM "tablelock"."change_request" AS r
                     WHERE r.table_name = use_lock.table_name AND r.state = 'pending'
                       AND r.token = shown) THEN
    RAISE EXCEPTION 'tablelock: changes to % need another person''s approval.', table_name
      USING ERRCODE = 'TL004',
            HINT = 'Submit them as a change request (submitChangeRequest); an approver applies them.';
  END IF;
  PERFORM set_config('tablelock.tokens',
    (coalesce(nullif(current_setting('tablelock.tokens', true), ''), '{}')::jsonb
      || jsonb_build_object(table_name, token))::text, true);
END;
$$;
