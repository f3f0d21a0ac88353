-- The column whose values row scopes name (issue 41): several editors may hold disjoint sets of
-- its values at once. NULL: the table's single-column primary key. Checked against the table's
-- columns when an admin sets it.
ALTER TABLE "tablelock"."table_policy" ADD COLUMN "row_lock_column" TEXT;
