-- The outbox (issue 28): every lock transition, freeze, change of rows and table policy change
-- becomes an event in the transaction that makes it, so that nothing is announced that did not
-- commit and nothing committed goes unannounced. Triggers on the records those changes already
-- write (lock_event, change_set, security_event) add it: every writer, the lock path, the
-- write guard and outside SQL alike, gets it without a line of its own (decision 0019).

-- One row per table that has had events: its row is locked at commit by each transaction
-- writing its events, so the table's events get positions in commit order.
CREATE TABLE "tablelock"."outbox_stream" (
  "table_name" TEXT NOT NULL,
  CONSTRAINT "outbox_stream_pkey" PRIMARY KEY ("table_name")
);

-- The order readers follow: drawn at commit, under the table's stream row lock.
CREATE SEQUENCE "tablelock"."outbox_position";

CREATE TABLE "tablelock"."outbox_event" (
  "id" BIGSERIAL NOT NULL,
  -- Null until the transaction commits.
  "position" BIGINT,
  "table_name" TEXT NOT NULL,
  "type" TEXT NOT NULL,
  "at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "txid" xid8 NOT NULL DEFAULT pg_current_xact_id(),
  -- The row it announces (one of the three). No foreign keys: they would cost the lock path a
  -- lookup per event and refuse a TRUNCATE of the history; purgeHistory deletes both.
  "lock_event_id" BIGINT,
  "change_set_id" BIGINT,
  "security_event_id" BIGINT,
  CONSTRAINT "outbox_event_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "outbox_event_position_key" ON "tablelock"."outbox_event" ("position");
CREATE INDEX "outbox_event_table_name_position_idx" ON "tablelock"."outbox_event" ("table_name", "position");
-- Only the events of transactions still under way: small, and what the commit looks up.
CREATE INDEX "outbox_event_unordered_idx" ON "tablelock"."outbox_event" ("txid") WHERE "position" IS NULL;
CREATE INDEX "outbox_event_change_set_id_idx" ON "tablelock"."outbox_event" ("change_set_id");

-- Lock transitions and freezes. Denied attempts and the line are not changes; an unlocked
-- write and a save are announced by their change set, which carries the counts.
CREATE FUNCTION "tablelock"."outbox_lock_event"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO "tablelock"."outbox_event" (table_name, type, at, lock_event_id)
  SELECT e.table_name, e.action::text, e.at, e.id FROM new_events AS e
  WHERE e.action IN ('acquire', 'release', 'expire', 'force_release', 'take_over', 'freeze', 'thaw')
  ORDER BY e.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER "lock_event_outbox" AFTER INSERT ON "tablelock"."lock_event"
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT
  EXECUTE FUNCTION "tablelock"."outbox_lock_event"();

-- A change of rows: one event per table and transaction, whatever its size (the row changes
-- stay in row_change; readers page through them by the change set).
CREATE FUNCTION "tablelock"."outbox_change_set"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO "tablelock"."outbox_event" (table_name, type, at, change_set_id)
  VALUES (NEW.table_name, NEW.kind::text, NEW.at, NEW.id);
  RETURN NULL;
END;
$$;
CREATE TRIGGER "change_set_outbox" AFTER INSERT ON "tablelock"."change_set"
  FOR EACH ROW EXECUTE FUNCTION "tablelock"."outbox_change_set"();

-- A table's policy or idle limit changed (recorded in the security history).
CREATE FUNCTION "tablelock"."outbox_security_event"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  INSERT INTO "tablelock"."outbox_event" (table_name, type, at, security_event_id)
  SELECT CASE WHEN s.action = 'table_policy_changed' THEN s.subject
              ELSE substr(s.subject, length('table:') + 1) END,
         'policy_change', s.at, s.id
  FROM new_events AS s
  WHERE s.action = 'table_policy_changed'
     OR (s.action = 'lock_settings_changed' AND s.subject LIKE 'table:%')
  ORDER BY s.id;
  RETURN NULL;
END;
$$;
CREATE TRIGGER "security_event_outbox" AFTER INSERT ON "tablelock"."security_event"
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT
  EXECUTE FUNCTION "tablelock"."outbox_security_event"();

-- At commit: positions for the transaction's events. Sequence numbers follow the order in
-- which they are drawn, not commits: a reader that has seen position 9 of a table must never
-- find 8 commit later. So each transaction locks the stream rows of its tables (in name order:
-- no deadlock between two transactions) and draws its positions while holding them, until its
-- commit. Per table, positions then follow commit order, and a committed position means every
-- smaller one of that table has committed too. The first of the transaction's deferred calls
-- does the work; the others find nothing left.
CREATE FUNCTION "tablelock"."outbox_order"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  tables text[];
BEGIN
  SELECT array_agg(DISTINCT table_name ORDER BY table_name) INTO tables
  FROM "tablelock"."outbox_event"
  WHERE txid = pg_current_xact_id() AND position IS NULL;
  IF tables IS NULL THEN RETURN NULL; END IF;
  INSERT INTO "tablelock"."outbox_stream" (table_name)
  SELECT unnest(tables) ORDER BY 1 ON CONFLICT DO NOTHING;
  PERFORM 1 FROM "tablelock"."outbox_stream" WHERE table_name = ANY (tables)
  ORDER BY table_name FOR UPDATE;
  UPDATE "tablelock"."outbox_event" AS o SET position = drawn.position
  FROM (SELECT id, nextval('"tablelock"."outbox_position"') AS position
        FROM (SELECT id FROM "tablelock"."outbox_event"
              WHERE txid = pg_current_xact_id() AND position IS NULL ORDER BY id) AS waiting
       ) AS drawn
  WHERE o.id = drawn.id;
  RETURN NULL;
END;
$$;
CREATE CONSTRAINT TRIGGER "outbox_event_order" AFTER INSERT ON "tablelock"."outbox_event"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "tablelock"."outbox_order"();
