-- The write guard and row history (issue 25). The guard's triggers and functions are installed
-- on master tables by the registry sync (packages/master-data/src/guard), not here: this only
-- makes the tables they write to. New enum values may not be used in the transaction that adds
-- them; nothing here uses them.
ALTER TYPE "tablelock"."LockAction" ADD VALUE 'unlocked_write';

CREATE TYPE "tablelock"."WriteGuard" AS ENUM ('OFF', 'RECORD', 'ENFORCE');
CREATE TYPE "tablelock"."ChangeKind" AS ENUM ('save', 'import', 'revert', 'locked_write', 'unlocked_write');

ALTER TABLE "tablelock"."table_policy"
    ADD COLUMN "write_guard" "tablelock"."WriteGuard" NOT NULL DEFAULT 'RECORD';

-- One per table per transaction that changed it.
CREATE TABLE "tablelock"."change_set" (
    "id" BIGINT GENERATED ALWAYS AS IDENTITY,
    "table_name" TEXT NOT NULL,
    "kind" "tablelock"."ChangeKind" NOT NULL,
    "token" BIGINT,
    "actor" TEXT,
    "db_role" TEXT NOT NULL,
    "application_name" TEXT,
    "reverts_change_set_id" BIGINT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "rows_inserted" INTEGER NOT NULL DEFAULT 0,
    "rows_updated" INTEGER NOT NULL DEFAULT 0,
    "rows_deleted" INTEGER NOT NULL DEFAULT 0,
    "txid" XID8 NOT NULL DEFAULT pg_current_xact_id(),

    CONSTRAINT "change_set_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "change_set_txid_table_name_key" UNIQUE ("txid", "table_name"),
    CONSTRAINT "change_set_reverts_change_set_id_fkey" FOREIGN KEY ("reverts_change_set_id")
        REFERENCES "tablelock"."change_set"("id")
);
CREATE INDEX "change_set_table_name_id_idx" ON "tablelock"."change_set"("table_name", "id");
CREATE INDEX "change_set_at_idx" ON "tablelock"."change_set"("at");
CREATE INDEX "change_set_reverts_change_set_id_idx" ON "tablelock"."change_set"("reverts_change_set_id")
    WHERE "reverts_change_set_id" IS NOT NULL;

-- One per row a change set touched.
CREATE TABLE "tablelock"."row_change" (
    "id" BIGINT GENERATED ALWAYS AS IDENTITY,
    "change_set_id" BIGINT NOT NULL,
    "table_name" TEXT NOT NULL,
    "row_key" JSONB NOT NULL,
    "operation" TEXT NOT NULL,
    "old_values" JSONB,
    "new_values" JSONB,

    CONSTRAINT "row_change_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "row_change_operation" CHECK ("operation" IN ('insert', 'update', 'delete')),
    CONSTRAINT "row_change_change_set_id_fkey" FOREIGN KEY ("change_set_id")
        REFERENCES "tablelock"."change_set"("id")
);
CREATE INDEX "row_change_table_name_row_key_id_idx" ON "tablelock"."row_change"("table_name", "row_key", "id");
CREATE INDEX "row_change_change_set_id_id_idx" ON "tablelock"."row_change"("change_set_id", "id");
