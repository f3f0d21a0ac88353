-- An endpoint the webhook delivery gives up on is a security event, so that admins are told
-- (issue 28), not only the log and the Webhooks page.
ALTER TYPE "tablelock"."SecurityAction" ADD VALUE 'webhook_disabled';
