-- HISTORY_RETENTION_DAYS: each purge of the row history is a security event. New enum values
-- may not be used in the transaction that adds them; nothing here uses them.
ALTER TYPE "tablelock"."SecurityAction" ADD VALUE 'history_purged';
