-- Governance: table policies, freezes and take-over rules. New enum values may not be used in
-- the transaction that adds them; nothing here uses them.
ALTER TYPE "tablelock"."LockAction" ADD VALUE 'freeze';
ALTER TYPE "tablelock"."LockAction" ADD VALUE 'thaw';
ALTER TYPE "tablelock"."SecurityAction" ADD VALUE 'table_policy_changed';
ALTER TYPE "tablelock"."SecurityAction" ADD VALUE 'take_over_rule_changed';

-- A freeze lives on the lock row itself: an acquisition reads it in the snapshot it plans on
-- and its conditional write fails if a freeze bumped the row's version meanwhile, so nothing
-- is acquired after a freeze commits.
ALTER TABLE "tablelock"."table_lock"
    ADD COLUMN "frozen_at" TIMESTAMPTZ(3),
    ADD COLUMN "frozen_by" TEXT,
    ADD COLUMN "frozen_reason" TEXT,
    ADD COLUMN "frozen_until" TIMESTAMPTZ(3),
    ADD CONSTRAINT "table_lock_freeze_complete" CHECK (
        ("frozen_at" IS NULL) = ("frozen_reason" IS NULL)
        AND ("frozen_at" IS NULL) = ("frozen_by" IS NULL)
        AND ("frozen_at" IS NOT NULL OR "frozen_until" IS NULL));

-- Who may edit a table and how: empty edit_roles and edit_groups mean every editor may.
ALTER TABLE "tablelock"."table_policy"
    ADD COLUMN "read_only" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "edit_roles" "tablelock"."Role"[] NOT NULL DEFAULT ARRAY[]::"tablelock"."Role"[],
    ADD COLUMN "edit_groups" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    ADD COLUMN "takes_part_in_locking" BOOLEAN NOT NULL DEFAULT true,
    ADD COLUMN "max_lease_seconds" INTEGER,
    ADD CONSTRAINT "table_policy_max_lease" CHECK ("max_lease_seconds" BETWEEN 15 AND 86400);

-- Who may take over a lock besides admins.
CREATE TYPE "tablelock"."TakeOverRule" AS ENUM ('admins_only', 'own_sessions', 'idle_holder');
ALTER TABLE "tablelock"."lock_settings"
    ADD COLUMN "take_over_rule" "tablelock"."TakeOverRule" NOT NULL DEFAULT 'own_sessions',
    ADD COLUMN "take_over_idle_minutes" INTEGER NOT NULL DEFAULT 15,
    ADD CONSTRAINT "lock_settings_take_over_idle" CHECK ("take_over_idle_minutes" BETWEEN 1 AND 1440);

-- The identity provider's groups of a user (also added by the OIDC sign-in migration; whichever
-- runs first adds it).
ALTER TABLE "tablelock"."user" ADD COLUMN IF NOT EXISTS "groups" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
