-- Changes that take effect on a date (issue 44; docs/decisions/0023): the enum values the next
-- migration's functions and the scheduler use. New enum values may not be used in the
-- transaction that adds them; nothing here uses them.
ALTER TYPE "tablelock"."ChangeRequestState" ADD VALUE 'scheduled';
ALTER TYPE "tablelock"."ChangeRequestState" ADD VALUE 'failed';
ALTER TYPE "tablelock"."ChangeKind" ADD VALUE 'scheduled';
-- A request became scheduled (at submission, or at its approval); was moved to another time;
-- was applied at its time; failed at its time. The outbox announces the first, third and
-- fourth as change.scheduled, change.applied and change.failed.
ALTER TYPE "tablelock"."LockAction" ADD VALUE 'request_scheduled';
ALTER TYPE "tablelock"."LockAction" ADD VALUE 'request_moved';
ALTER TYPE "tablelock"."LockAction" ADD VALUE 'request_applied';
ALTER TYPE "tablelock"."LockAction" ADD VALUE 'request_failed';
