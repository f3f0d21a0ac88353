-- A change request may carry an import's dry run instead of the grid's changes: approval applies
-- that dry run. A dry run a pending request carries is kept past the day dry runs are kept.
ALTER TABLE "tablelock"."change_request" ADD COLUMN "import_dry_run_id" UUID;
CREATE INDEX "change_request_import_dry_run_id_idx" ON "tablelock"."change_request"("import_dry_run_id")
    WHERE "import_dry_run_id" IS NOT NULL;
