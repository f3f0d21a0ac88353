-- Editions (issue 44, outcome 2; docs/decisions/0023): several scheduled change requests over
-- several tables, applied together at one time, all or nothing. A request in an edition takes
-- the edition's time and is applied only with it: the scheduler runs the edition, not the
-- request.
CREATE TYPE "tablelock"."EditionState" AS ENUM ('scheduled', 'applied', 'failed');

CREATE TABLE "tablelock"."edition" (
    "id" BIGSERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "effective_at" TIMESTAMPTZ(3) NOT NULL,
    "state" "tablelock"."EditionState" NOT NULL DEFAULT 'scheduled',
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "applied_at" TIMESTAMPTZ(3),
    "failed_at" TIMESTAMPTZ(3),
    "late_by_seconds" INTEGER,
    "failure" JSONB,
    -- As change_request.claimed_by: the API process applying it now.
    "claimed_by" TEXT,

    CONSTRAINT "edition_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "edition_scheduled_effective_at_idx" ON "tablelock"."edition"("effective_at")
    WHERE "state" = 'scheduled';

ALTER TABLE "tablelock"."change_request"
    ADD COLUMN "edition_id" BIGINT REFERENCES "tablelock"."edition"("id");
CREATE INDEX "change_request_edition_id_idx" ON "tablelock"."change_request"("edition_id");

-- An edition scheduled or moved wakes every scheduler, as a request does.
CREATE TRIGGER "edition_announce_schedule"
    AFTER INSERT OR UPDATE OF "state", "effective_at" ON "tablelock"."edition"
    FOR EACH ROW WHEN (NEW.state = 'scheduled')
    EXECUTE FUNCTION "tablelock"."announce_schedule"();
