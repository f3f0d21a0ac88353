-- When the holder of an `editing` lock last showed activity (an acquisition, or a renewal that
-- reports activity): idle limits and take-over rules are judged by it, on the database clock.
ALTER TABLE "tablelock"."table_lock" ADD COLUMN "last_active_at" TIMESTAMPTZ(3);
UPDATE "tablelock"."table_lock" SET "last_active_at" = "acquired_at" WHERE "status" = 'editing';

-- Settings that apply to every table unless its policy says otherwise: one row, always there.
CREATE TABLE "tablelock"."lock_settings" (
    "id" BOOLEAN NOT NULL DEFAULT true,
    "idle_limit_seconds" INTEGER NOT NULL DEFAULT 900,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by" TEXT,

    CONSTRAINT "lock_settings_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "lock_settings_single_row" CHECK ("id"),
    CONSTRAINT "lock_settings_idle_limit" CHECK ("idle_limit_seconds" BETWEEN 60 AND 86400)
);
INSERT INTO "tablelock"."lock_settings" ("id") VALUES (true);

-- One master table's policy: a null setting follows lock_settings. Kept by table name (not a
-- foreign key to table_lock), so a policy survives a table dropped and created again.
CREATE TABLE "tablelock"."table_policy" (
    "table_name" TEXT NOT NULL,
    "idle_limit_seconds" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by" TEXT,

    CONSTRAINT "table_policy_pkey" PRIMARY KEY ("table_name"),
    CONSTRAINT "table_policy_idle_limit" CHECK ("idle_limit_seconds" BETWEEN 60 AND 86400)
);
