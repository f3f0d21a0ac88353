-- Issue 44: a scheduled change request's time is near and someone still holds its table (the
-- whole table or a row scope): the scheduler tells each holder once, as a lock event of its
-- own, announced on the lock channel like every other (not an outbox event: nothing changed).
ALTER TYPE "tablelock"."LockAction" ADD VALUE 'request_due_soon';
