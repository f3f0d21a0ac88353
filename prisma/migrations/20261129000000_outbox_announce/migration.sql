-- A transaction that wrote outbox events announces it once, at commit, on `tablelock_outbox`:
-- webhook delivery then starts at once instead of finding it by polling every 100 ms.
CREATE OR REPLACE FUNCTION "tablelock"."outbox_order"() RETURNS trigger
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
  PERFORM pg_notify('tablelock_outbox', 'events');
  RETURN NULL;
END;
$$;

-- An endpoint created, changed or enabled again is announced too: a process that found no
-- endpoint ignores the commits' announcements until then, and so costs nothing without webhooks.
CREATE FUNCTION "tablelock"."announce_webhook_change"() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  PERFORM pg_notify('tablelock_outbox', 'endpoints');
  RETURN NULL;
END;
$$;
CREATE TRIGGER "webhook_announce" AFTER INSERT OR UPDATE ON "tablelock"."webhook"
  FOR EACH STATEMENT EXECUTE FUNCTION "tablelock"."announce_webhook_change"();
