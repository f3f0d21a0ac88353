-- The tables page describes one page of tables at a time: which tables reference those on the
-- page is then an index lookup (`"references" && page`), not a scan of thousands of rows.
CREATE INDEX "table_lock_references_idx" ON "tablelock"."table_lock" USING GIN ("references");
