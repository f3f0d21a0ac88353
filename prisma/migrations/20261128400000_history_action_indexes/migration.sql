-- A history filtered by action (all force releases, all failed logins) read the newest events
-- one by one until it found a page of them: 6.6 s for an action that matched none of
-- 10,000,000 lock events. By action then id, a page is a short index range.
CREATE INDEX "lock_event_action_id_idx" ON "tablelock"."lock_event" ("action", "id");
CREATE INDEX "security_event_action_id_idx" ON "tablelock"."security_event" ("action", "id");
