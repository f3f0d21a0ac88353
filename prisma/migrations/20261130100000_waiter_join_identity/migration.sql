-- A join of the line carries identities chosen before its insert. `join_key` names the join
-- (from the request's idempotency key): a retry after a lost answer takes up the row it left.
-- `attempt` names the request now serving the row: its process gives up just that row, and a
-- row whose join answered no one is given up by its attempt.
ALTER TABLE "tablelock"."lock_waiter"
  ADD COLUMN "join_key" text NOT NULL DEFAULT gen_random_uuid()::text,
  ADD COLUMN "attempt" text NOT NULL DEFAULT gen_random_uuid()::text;

CREATE UNIQUE INDEX "lock_waiter_join_key_key" ON "tablelock"."lock_waiter" ("join_key");
CREATE INDEX "lock_waiter_attempt_idx" ON "tablelock"."lock_waiter" ("attempt");
