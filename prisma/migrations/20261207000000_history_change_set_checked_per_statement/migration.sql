-- History at bulk speed (issue 45, outcome 1; docs/decisions/0022): a row change's change set
-- is checked once per statement, not once per row.
--
-- The foreign key row_change_change_set_id_fkey queued a check per recorded row: an import of
-- 100,000 rows queued 100,000 after-trigger events, each looking up the change set the guard had
-- just inserted in the same transaction, more than half of what recording the import cost. The
-- same rule is now a statement-level trigger over the statement's new rows (one anti-join of
-- their distinct change sets) and, on the other side, a statement-level trigger over deleted or
-- truncated change sets. Same message class (23503, foreign_key_violation), the same writes
-- refused: a row change naming no change set, and a change set deleted or truncated while row
-- changes name it. As the foreign key did, the triggers fire under session_replication_role
-- origin and local only (a restore loads the history as it was).
--
-- The constraint is dropped (a constraint, not a table, column or function): the column stays.

ALTER TABLE "tablelock"."row_change" DROP CONSTRAINT "row_change_change_set_id_fkey";

-- A row change written or rewritten by the statement names a change set that exists.
CREATE FUNCTION "tablelock"."check_row_change_sets"() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  missing bigint;
BEGIN
  SELECT w.change_set_id INTO missing
  FROM (SELECT DISTINCT n.change_set_id FROM new_changes AS n) AS w
  WHERE NOT EXISTS (SELECT 1 FROM "tablelock"."change_set" AS cs WHERE cs.id = w.change_set_id)
  ORDER BY w.change_set_id LIMIT 1;
  IF found THEN
    RAISE EXCEPTION 'tablelock: a row change names change set %, and there is none.', missing
      USING ERRCODE = 'foreign_key_violation', TABLE = 'row_change', COLUMN = 'change_set_id',
            HINT = 'Row changes are written by the write guard, under the change set of their transaction.';
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "row_change_change_set_inserted" AFTER INSERT ON "tablelock"."row_change"
  REFERENCING NEW TABLE AS new_changes
  FOR EACH STATEMENT EXECUTE FUNCTION "tablelock"."check_row_change_sets"();
CREATE TRIGGER "row_change_change_set_updated" AFTER UPDATE ON "tablelock"."row_change"
  REFERENCING NEW TABLE AS new_changes
  FOR EACH STATEMENT EXECUTE FUNCTION "tablelock"."check_row_change_sets"();

-- No row change is left naming a change set the statement deleted (by its index on
-- change_set_id), or, after a TRUNCATE of change_set, any change set at all (TRUNCATE of both
-- tables in one command stays allowed: the check runs after both are emptied).
CREATE FUNCTION "tablelock"."check_change_sets_unreferenced"() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  referenced bigint;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    SELECT rc.change_set_id INTO referenced FROM "tablelock"."row_change" AS rc LIMIT 1;
  ELSE
    SELECT o.id INTO referenced FROM old_sets AS o
    WHERE EXISTS (SELECT 1 FROM "tablelock"."row_change" AS rc WHERE rc.change_set_id = o.id)
    ORDER BY o.id LIMIT 1;
  END IF;
  IF found THEN
    RAISE EXCEPTION 'tablelock: change set % still has row changes.', referenced
      USING ERRCODE = 'foreign_key_violation', TABLE = 'change_set',
            HINT = 'Delete its row changes first (as purgeHistory does), or truncate both tables together.';
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "change_set_row_changes_deleted" AFTER DELETE ON "tablelock"."change_set"
  REFERENCING OLD TABLE AS old_sets
  FOR EACH STATEMENT EXECUTE FUNCTION "tablelock"."check_change_sets_unreferenced"();
CREATE TRIGGER "change_set_row_changes_truncated" AFTER TRUNCATE ON "tablelock"."change_set"
  FOR EACH STATEMENT EXECUTE FUNCTION "tablelock"."check_change_sets_unreferenced"();
