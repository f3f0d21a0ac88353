-- Import dry runs: what a file would do to a table, kept until it is applied or replaced, so
-- that "Apply" writes exactly what was shown and can tell which rows changed since.
CREATE TABLE "tablelock"."import_dry_run" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "table_name" TEXT NOT NULL,
    "editor" TEXT NOT NULL,
    "token" BIGINT NOT NULL,
    "file_name" TEXT NOT NULL,
    "columns" TEXT[] NOT NULL,
    "counts" JSONB NOT NULL,
    "rows" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "import_dry_run_pkey" PRIMARY KEY ("id")
);

-- One dry run per editor and table is kept: a new one replaces the one before.
CREATE INDEX "import_dry_run_editor_table_name_idx" ON "tablelock"."import_dry_run" ("editor", "table_name");
CREATE INDEX "import_dry_run_created_at_idx" ON "tablelock"."import_dry_run" ("created_at");
