-- The retention sweeper deletes webhook deliveries by age (WEBHOOK_DELIVERY_RETENTION_DAYS),
-- a batch at a time: each batch finds the oldest through this index, not a scan of the log.
CREATE INDEX "webhook_delivery_at_idx" ON "tablelock"."webhook_delivery" ("at");
