-- A user's identity-provider groups decide what table policies let them edit, and API processes
-- remember a session's user (groups included) for a while: a change of groups, or of where the
-- role comes from, is announced like a change of role, so every process forgets it at once.
DROP TRIGGER "user_credentials_changed_announce" ON "tablelock"."user";
CREATE TRIGGER "user_credentials_changed_announce"
    AFTER UPDATE ON "tablelock"."user"
    FOR EACH ROW WHEN (
        OLD."disabled" IS DISTINCT FROM NEW."disabled"
        OR OLD."password_hash" IS DISTINCT FROM NEW."password_hash"
        OR OLD."role" IS DISTINCT FROM NEW."role"
        OR OLD."role_source" IS DISTINCT FROM NEW."role_source"
        OR OLD."groups" IS DISTINCT FROM NEW."groups"
        OR OLD."username" IS DISTINCT FROM NEW."username")
    EXECUTE FUNCTION "tablelock"."announce_credential_change"('userId', 'id');
