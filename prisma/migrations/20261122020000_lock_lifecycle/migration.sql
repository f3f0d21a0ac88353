-- Fencing tokens: one sequence, so every acquisition's token is greater than all before it,
-- across API processes and restarts.
CREATE SEQUENCE "tablelock"."fencing_token_seq";

-- AlterTable
ALTER TABLE "tablelock"."table_lock"
    ADD COLUMN "fencing_token" BIGINT,
    ADD COLUMN "acquired_at" TIMESTAMPTZ(3),
    ADD COLUMN "lease_expires_at" TIMESTAMPTZ(3),
    ADD CONSTRAINT "table_lock_token_iff_editing" CHECK (("status" = 'editing') = ("fencing_token" IS NOT NULL)),
    ADD CONSTRAINT "table_lock_acquired_iff_editing" CHECK (("status" = 'editing') = ("acquired_at" IS NOT NULL)),
    ADD CONSTRAINT "table_lock_lease_only_editing" CHECK ("status" = 'editing' OR "lease_expires_at" IS NULL);

-- The sweeper looks for expired leases every second.
CREATE INDEX "table_lock_lease_expires_at_idx" ON "tablelock"."table_lock"("lease_expires_at");

-- CreateEnum
CREATE TYPE "tablelock"."LockAction" AS ENUM ('acquire', 'release', 'expire', 'force_release', 'take_over', 'denied', 'save');

-- CreateTable
CREATE TABLE "tablelock"."lock_event" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "action" "tablelock"."LockAction" NOT NULL,
    "table_name" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "editor" TEXT,
    "token" BIGINT,
    "reason" TEXT,
    "rows_changed" INTEGER,
    "details" JSONB,

    CONSTRAINT "lock_event_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "lock_event_table_name_id_idx" ON "tablelock"."lock_event"("table_name", "id");

-- CreateIndex
CREATE INDEX "lock_event_actor_id_idx" ON "tablelock"."lock_event"("actor", "id");

-- CreateIndex
CREATE INDEX "lock_event_at_idx" ON "tablelock"."lock_event"("at");

-- CreateTable
CREATE TABLE "tablelock"."idempotency_key" (
    "principal" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_key_pkey" PRIMARY KEY ("principal", "key")
);

-- CreateIndex
CREATE INDEX "idempotency_key_created_at_idx" ON "tablelock"."idempotency_key"("created_at");
