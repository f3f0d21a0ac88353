-- Four-eyes change requests (issue 27): a change waiting for another person's approval, kept as
-- row diffs with the row versions they were made against. A pending request carries its table's
-- lock: the lock's token is the request's, without a lease, so neither the sweeper nor the idle
-- limit ends it.
CREATE TYPE "tablelock"."ChangeRequestState" AS ENUM ('pending', 'applied', 'rejected', 'sentBack', 'withdrawn');

CREATE TABLE "tablelock"."change_request" (
    "id" BIGINT GENERATED ALWAYS AS IDENTITY,
    "table_name" TEXT NOT NULL,
    "state" "tablelock"."ChangeRequestState" NOT NULL DEFAULT 'pending',
    "author" TEXT NOT NULL,
    "submitted_by" TEXT NOT NULL,
    "submitters" TEXT[] NOT NULL,
    "token" BIGINT NOT NULL,
    "comment" TEXT,
    "changes" JSONB NOT NULL,
    "rows" JSONB NOT NULL,
    "row_count" INTEGER NOT NULL,
    "keep_editing" BOOLEAN NOT NULL DEFAULT false,
    "submitted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
    "decided_by" TEXT,
    "decided_at" TIMESTAMPTZ(3),
    "decision_comment" TEXT,
    "changed_rows" JSONB,
    "change_set_id" BIGINT,

    CONSTRAINT "change_request_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "change_request_decided" CHECK (("state" = 'pending') = ("decided_at" IS NULL))
);
-- The lock is exclusive, so a table has at most one pending request.
CREATE UNIQUE INDEX "change_request_pending_table_key" ON "tablelock"."change_request"("table_name")
    WHERE "state" = 'pending';
CREATE INDEX "change_request_state_id_idx" ON "tablelock"."change_request"("state", "id");
CREATE INDEX "change_request_table_name_id_idx" ON "tablelock"."change_request"("table_name", "id");

-- The row history names who approved a change, and its request.
ALTER TABLE "tablelock"."change_set"
    ADD COLUMN "approved_by" TEXT,
    ADD COLUMN "change_request_id" BIGINT;

-- A lock that ends under a pending request (an admin's force release or take-over) rejects it,
-- in the same statement, with the lock event's actor and reason. Only locks without a lease
-- can carry a request, so locks with one (the app's, other systems') never call this.
CREATE FUNCTION "tablelock"."reject_orphaned_change_request"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    ended RECORD;
BEGIN
    SELECT actor, reason INTO ended FROM "tablelock"."lock_event"
    WHERE table_name = NEW.table_name
      AND action IN ('force_release', 'take_over', 'expire', 'release')
    ORDER BY id DESC LIMIT 1;
    UPDATE "tablelock"."change_request"
    SET state = 'rejected', decided_at = now(),
        decided_by = coalesce(ended.actor, 'system'),
        decision_comment = coalesce(ended.reason, 'The lock ended.')
    WHERE table_name = NEW.table_name AND state = 'pending' AND token = OLD.fencing_token;
    RETURN NULL;
END;
$$;

CREATE TRIGGER "table_lock_rejects_orphaned_change_request"
    AFTER UPDATE ON "tablelock"."table_lock"
    FOR EACH ROW
    WHEN (OLD.fencing_token IS NOT NULL AND OLD.lease_expires_at IS NULL
          AND OLD.fencing_token IS DISTINCT FROM NEW.fencing_token)
    EXECUTE FUNCTION "tablelock"."reject_orphaned_change_request"();
