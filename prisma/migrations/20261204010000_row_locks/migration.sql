-- Row scopes (issue 41; docs/decisions/0021): an editor holds the rows of a table whose
-- row-lock column has one of `rows`, beside others holding other values. Each scope has a
-- fencing token of the same timeline as whole-table locks, a lease and an activity clock.
CREATE TABLE "tablelock"."row_lock" (
  "fencing_token"    BIGINT PRIMARY KEY,
  "table_name"       TEXT NOT NULL REFERENCES "tablelock"."table_lock" ("table_name") ON DELETE CASCADE,
  "editor"           TEXT NOT NULL,
  "rows"             TEXT[] NOT NULL,
  "acquired_at"      TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "lease_expires_at" TIMESTAMPTZ(3),
  "last_active_at"   TIMESTAMPTZ(3) NOT NULL DEFAULT now()
);
CREATE INDEX "row_lock_table_name_idx" ON "tablelock"."row_lock" ("table_name");
CREATE INDEX "row_lock_lease_expires_at_idx" ON "tablelock"."row_lock" ("lease_expires_at");
