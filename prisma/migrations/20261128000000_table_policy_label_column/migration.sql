-- The column a foreign key's value help shows beside the key of this table's rows; NULL: the
-- first text column. Checked against the table's columns when an admin sets it.
ALTER TABLE "tablelock"."table_policy" ADD COLUMN "label_column" TEXT;
