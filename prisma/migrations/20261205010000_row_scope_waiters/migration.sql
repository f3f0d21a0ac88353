-- Row scopes wait in line (issue 41, outcome 5; docs/decisions/0021): a waiter for a row scope
-- keeps its values, so that it goes first only for those whose wants overlap its own (the
-- whole table, or a scope of the same table with a value in common, or its table as their FK
-- target). Empty (as Prisma's lists are never null): a waiter for whole tables.
ALTER TABLE "tablelock"."lock_waiter" ADD COLUMN "rows" TEXT[] NOT NULL DEFAULT '{}';
