-- Queue events. A new enum value may not be used in the transaction that adds it; nothing here
-- uses it.
ALTER TYPE "tablelock"."LockAction" ADD VALUE 'queued';
ALTER TYPE "tablelock"."LockAction" ADD VALUE 'dequeued';

-- The line of those waiting for tables: first come (lowest id), first served.
CREATE TABLE "tablelock"."lock_waiter" (
    "id" BIGSERIAL NOT NULL,
    "tables" TEXT[] NOT NULL,
    "references" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "editor" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "reserved_until" TIMESTAMPTZ(3),

    CONSTRAINT "lock_waiter_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "lock_waiter_tables_not_empty" CHECK (cardinality("tables") > 0)
);
