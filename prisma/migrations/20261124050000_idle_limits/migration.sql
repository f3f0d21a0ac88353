-- An admin's change of the idle limits (global or one table's) goes into the security audit.
ALTER TYPE "tablelock"."SecurityAction" ADD VALUE 'lock_settings_changed';

-- The app refuses idle limits under IDLE_LIMIT_MIN_SECONDS (60 unless a test lowers it); the
-- database only keeps out limits too short for the sweeper and the renewals to follow.
ALTER TABLE "tablelock"."lock_settings" DROP CONSTRAINT "lock_settings_idle_limit";
ALTER TABLE "tablelock"."lock_settings" ADD CONSTRAINT "lock_settings_idle_limit"
    CHECK ("idle_limit_seconds" BETWEEN 10 AND 86400);
ALTER TABLE "tablelock"."table_policy" DROP CONSTRAINT "table_policy_idle_limit";
ALTER TABLE "tablelock"."table_policy" ADD CONSTRAINT "table_policy_idle_limit"
    CHECK ("idle_limit_seconds" BETWEEN 10 AND 86400);
