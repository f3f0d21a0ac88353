-- The commit's ordering ran once per outbox event, and each run looked for the transaction's
-- unordered events through an index still full of the versions the first run had just updated:
-- quadratic, 10,000 events of one transaction took tens of seconds. A run whose own event has a
-- position now returns at once: an earlier run of the same transaction ordered it, with every
-- event then unordered; an event inserted after that (SET CONSTRAINTS … IMMEDIATE fires the
-- runs early) has a run of its own still to come, which finds it unordered and orders it.
CREATE OR REPLACE FUNCTION "tablelock"."outbox_order"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  tables text[];
BEGIN
  PERFORM 1 FROM "tablelock"."outbox_event" WHERE id = NEW.id AND position IS NULL;
  IF NOT FOUND THEN RETURN NULL; END IF;
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
  PERFORM pg_notify('tablelock_outbox', 'events');
  RETURN NULL;
END;
$$;
