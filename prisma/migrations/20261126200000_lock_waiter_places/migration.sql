-- One place in line per editor and table (issue 22): each waiter claims (editor, table) for
-- every table it waits for, in the same statement that adds it. A second claim fails on the
-- primary key, whichever API process makes it; the claims go with their waiter.
CREATE TABLE "tablelock"."lock_waiter_place" (
    "editor" TEXT NOT NULL,
    "table_name" TEXT NOT NULL,
    "waiter_id" BIGINT NOT NULL,
    CONSTRAINT "lock_waiter_place_pkey" PRIMARY KEY ("editor", "table_name"),
    CONSTRAINT "lock_waiter_place_waiter_id_fkey" FOREIGN KEY ("waiter_id")
        REFERENCES "tablelock"."lock_waiter" ("id") ON DELETE CASCADE
);

CREATE INDEX "lock_waiter_place_waiter_id_idx" ON "tablelock"."lock_waiter_place" ("waiter_id");

-- Waiters already in line keep their places; duplicates among them keep the earliest.
INSERT INTO "tablelock"."lock_waiter_place" ("editor", "table_name", "waiter_id")
SELECT DISTINCT ON (w."editor", t."name") w."editor", t."name", w."id"
FROM "tablelock"."lock_waiter" AS w, unnest(w."tables") AS t("name")
ORDER BY w."editor", t."name", w."id";

-- The waiter's role and identity-provider groups when it joined: a waiter the table's policy
-- comes to leave out (edit_roles, edit_groups) goes first for nobody. Null: a trusted caller
-- (tests, the benchmark), or a waiter from before: counted as allowed.
ALTER TABLE "tablelock"."lock_waiter"
    ADD COLUMN "role" "tablelock"."Role",
    ADD COLUMN "groups" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
