-- A delivery leases its endpoint's table instead of holding its row lock across the HTTP sends:
-- the claim is committed before the first send and checked when the outcome is recorded, so that
-- a slow receiver holds no connection (and no transaction) while it answers. A lease that ran
-- out (its process died) may be taken by another process.
ALTER TABLE "tablelock"."webhook_stream"
  ADD COLUMN "claim" UUID,
  ADD COLUMN "claimed_until" TIMESTAMPTZ(3),
  ADD CONSTRAINT "webhook_stream_claim_check" CHECK (("claim" IS NULL) = ("claimed_until" IS NULL));
