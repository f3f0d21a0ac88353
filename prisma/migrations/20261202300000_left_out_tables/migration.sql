-- Partitioned tables are outside the write guard's reach (issue 40, item 3). The guard's
-- statement triggers fire for the table a statement names: a write straight to a partition
-- fired none of the parent's, and passed an ENFORCE table unrefused and unrecorded. Postgres
-- clones only row triggers to partitions, never statement triggers (the guard needs theirs for
-- transition tables), and TRUNCATE of a partition fires no row trigger at all: a partition
-- attached after the guard was installed could be emptied unguarded until the next sync, and
-- nothing short of an event trigger (superuser only) hears an ATTACH. Table inheritance, on
-- which partitioning is built, has the same gap the other way round: a write to a parent writes
-- its children's rows past their own triggers and locks.
--
-- So the registry sync (packages/lock, syncTableRegistry) leaves out every table of an
-- inheritance tree: partitioned tables, their partitions, and parents and children of table
-- inheritance. None is lockable or guarded; the guard's triggers a table still carries from
-- before are removed by the guard's sync. This table keeps what the registry sync left out,
-- so that a request to lock one is refused for what it is (TABLE_PARTITIONED), not as unknown.
CREATE TABLE "tablelock"."left_out_table" (
    "table_name" TEXT NOT NULL,
    -- What it is a partition of, or inherits from; null for a partitioned table or a parent.
    "parent" TEXT,
    -- Declarative partitioning (a partitioned table or a partition), else table inheritance.
    "partitioned" BOOLEAN NOT NULL,

    CONSTRAINT "left_out_table_pkey" PRIMARY KEY ("table_name")
);
