-- Sort indexes: each build and drop is a security event, and each index's last use is kept so
-- that those no sort used for a long time can be dropped. New enum values may not be used in
-- the transaction that adds them; nothing here uses them.
ALTER TYPE "tablelock"."SecurityAction" ADD VALUE 'sort_index_built';
ALTER TYPE "tablelock"."SecurityAction" ADD VALUE 'sort_index_dropped';

-- CreateTable
CREATE TABLE "tablelock"."sort_index" (
    "index_name" TEXT NOT NULL,
    "table_name" TEXT NOT NULL,
    "column_name" TEXT NOT NULL,
    "built_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sort_index_pkey" PRIMARY KEY ("index_name")
);

-- CreateIndex
CREATE INDEX "sort_index_last_used_at_idx" ON "tablelock"."sort_index"("last_used_at");
