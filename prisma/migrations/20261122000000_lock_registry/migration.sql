-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "tablelock";

-- CreateEnum
CREATE TYPE "tablelock"."TableStatus" AS ENUM ('normal', 'editing', 'locked');

-- CreateTable
CREATE TABLE "tablelock"."table_lock" (
    "table_name" TEXT NOT NULL,
    "status" "tablelock"."TableStatus" NOT NULL DEFAULT 'normal',
    "editor" TEXT,
    "locked_by" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "references" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "table_lock_pkey" PRIMARY KEY ("table_name"),
    -- The state machine's invariants, held by the database whatever the code does.
    CONSTRAINT "table_lock_editor_iff_editing" CHECK (("status" = 'editing') = ("editor" IS NOT NULL)),
    CONSTRAINT "table_lock_holders_iff_locked" CHECK (("status" = 'locked') = (cardinality("locked_by") > 0))
);
