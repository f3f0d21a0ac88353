-- A session cut short (its expiry moved earlier, as an operator may do by hand) is announced
-- on `tablelock_credentials` like one that ended: API processes remember live sessions for a
-- short while (apps/api/src/auth/credentialCache.ts) and forget them when told.
CREATE TRIGGER "session_shortened_announce"
    AFTER UPDATE OF "expires_at" ON "tablelock"."session"
    FOR EACH ROW WHEN (NEW."expires_at" < OLD."expires_at")
    EXECUTE FUNCTION "tablelock"."announce_credential_change"('userId', 'user_id');
