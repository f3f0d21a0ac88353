-- Import dry runs keep their rows one row each, not as one jsonb value: a dry run of a million
-- rows is classified and read back in Postgres, a page at a time, never built whole anywhere.
ALTER TABLE "tablelock"."import_dry_run" DROP COLUMN "rows";

CREATE TABLE "tablelock"."import_dry_run_row" (
    "dry_run_id" UUID NOT NULL,
    -- The row's number as a spreadsheet shows it (the header is row 1).
    "line" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "key" JSONB,
    "version" TEXT,
    "values" JSONB NOT NULL,
    "changed" TEXT[] NOT NULL,
    "previous" JSONB,
    "errors" JSONB NOT NULL,

    CONSTRAINT "import_dry_run_row_pkey" PRIMARY KEY ("dry_run_id", "line"),
    CONSTRAINT "import_dry_run_row_dry_run_id_fkey" FOREIGN KEY ("dry_run_id")
      REFERENCES "tablelock"."import_dry_run" ("id") ON DELETE CASCADE
);

-- A file's rows as they arrive (COPY), before they are classified: unlogged, as they live for
-- one dry run only; rows a crash left behind are dropped with the day-old dry runs.
CREATE UNLOGGED TABLE "tablelock"."import_staging" (
    "dry_run_id" UUID NOT NULL,
    "line" INTEGER NOT NULL,
    "cells" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "import_staging_pkey" PRIMARY KEY ("dry_run_id", "line")
);
CREATE INDEX "import_staging_created_at_idx" ON "tablelock"."import_staging" ("created_at");
