-- History at bulk speed, switched on (issue 45; docs/decisions/0022): a statement of the write
-- guard that changes 1,000 rows or more of a table with a primary key is recorded in batches.
-- The release before this one (v0.6.0) brought the batches and every reader of them, and wrote
-- none: during a rolling upgrade from it, its instances read what the new ones write. A
-- threshold an operator set since is kept; to keep batches off, set it NULL again after the
-- upgrade.
UPDATE "tablelock"."history_capture" SET "batch_from_rows" = 1000 WHERE "batch_from_rows" IS NULL;
