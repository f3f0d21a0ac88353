-- Four-eyes change requests: each step is a lock event. New enum values may not be used in the
-- transaction that adds them; nothing here uses them.
ALTER TYPE "tablelock"."LockAction" ADD VALUE 'request_submitted';
ALTER TYPE "tablelock"."LockAction" ADD VALUE 'request_approved';
ALTER TYPE "tablelock"."LockAction" ADD VALUE 'request_rejected';
ALTER TYPE "tablelock"."LockAction" ADD VALUE 'request_sent_back';
ALTER TYPE "tablelock"."LockAction" ADD VALUE 'request_withdrawn';
