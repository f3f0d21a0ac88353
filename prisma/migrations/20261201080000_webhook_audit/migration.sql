-- A webhook endpoint is a way out for the tables' data (issue 40): creating, changing and
-- deleting one are security events, and its delivery log outlives it.
ALTER TYPE "tablelock"."SecurityAction" ADD VALUE 'webhook_created';
ALTER TYPE "tablelock"."SecurityAction" ADD VALUE 'webhook_changed';
ALTER TYPE "tablelock"."SecurityAction" ADD VALUE 'webhook_deleted';

-- Where each message went, on its own row: the endpoint's row may be changed or gone since.
ALTER TABLE "tablelock"."webhook_delivery" ADD COLUMN "url" TEXT;
UPDATE "tablelock"."webhook_delivery" AS d SET "url" = w."url"
FROM "tablelock"."webhook" AS w WHERE w."id" = d."webhook_id";
ALTER TABLE "tablelock"."webhook_delivery" ALTER COLUMN "url" SET NOT NULL;

-- Deleting an endpoint keeps its log (the retention purges it); its rows no longer name it.
ALTER TABLE "tablelock"."webhook_delivery" ALTER COLUMN "webhook_id" DROP NOT NULL;
ALTER TABLE "tablelock"."webhook_delivery"
  DROP CONSTRAINT "webhook_delivery_webhook_id_fkey",
  ADD CONSTRAINT "webhook_delivery_webhook_id_fkey" FOREIGN KEY ("webhook_id")
    REFERENCES "tablelock"."webhook" ("id") ON DELETE SET NULL;
