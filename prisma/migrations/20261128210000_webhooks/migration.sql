-- Webhooks (issue 28): endpoints admins register, where each API process delivers the outbox's
-- events, per endpoint and table in position order, and the log of what it sent.
CREATE TABLE "tablelock"."webhook" (
  "id" BIGSERIAL NOT NULL,
  "url" TEXT NOT NULL,
  -- Empty: every type; every table.
  "event_types" TEXT[] NOT NULL DEFAULT '{}',
  "tables" TEXT[] NOT NULL DEFAULT '{}',
  "with_rows" BOOLEAN NOT NULL DEFAULT false,
  -- The Standard Webhooks signing secret (whsec_…): shown once, when it is created.
  "secret" TEXT NOT NULL,
  -- Events up to this position were there before the endpoint: it gets those after.
  "after_position" BIGINT NOT NULL,
  "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "created_by" TEXT NOT NULL,
  "disabled_at" TIMESTAMPTZ(3),
  "disabled_reason" TEXT,
  CONSTRAINT "webhook_pkey" PRIMARY KEY ("id")
);

-- Where one endpoint stands in one table's events. A process delivering holds its row lock.
CREATE TABLE "tablelock"."webhook_stream" (
  "webhook_id" BIGINT NOT NULL,
  "table_name" TEXT NOT NULL,
  -- The last event delivered (or passed over, not being of the endpoint's types).
  "position" BIGINT NOT NULL,
  -- Within the next event's rows: the last row change delivered.
  "row_after" BIGINT,
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  "failing_since" TIMESTAMPTZ(3),
  CONSTRAINT "webhook_stream_pkey" PRIMARY KEY ("webhook_id", "table_name"),
  CONSTRAINT "webhook_stream_webhook_id_fkey" FOREIGN KEY ("webhook_id")
    REFERENCES "tablelock"."webhook" ("id") ON DELETE CASCADE
);

CREATE TABLE "tablelock"."webhook_delivery" (
  "id" BIGSERIAL NOT NULL,
  "webhook_id" BIGINT NOT NULL,
  -- The webhook-id sent: the event's id, with `-rows-<n>` for its n-th batch of rows.
  "message_id" TEXT NOT NULL,
  "event_id" BIGINT NOT NULL,
  "table_name" TEXT NOT NULL,
  "type" TEXT NOT NULL,
  "attempt" INTEGER NOT NULL,
  "at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  -- HTTP status; null when no answer came.
  "response_status" INTEGER,
  "latency_ms" INTEGER NOT NULL,
  "delivered" BOOLEAN NOT NULL,
  "error" TEXT,
  CONSTRAINT "webhook_delivery_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "webhook_delivery_webhook_id_fkey" FOREIGN KEY ("webhook_id")
    REFERENCES "tablelock"."webhook" ("id") ON DELETE CASCADE
);
CREATE INDEX "webhook_delivery_webhook_id_id_idx" ON "tablelock"."webhook_delivery" ("webhook_id", "id");
