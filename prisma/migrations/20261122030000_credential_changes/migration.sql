-- Credential changes are announced on the channel `tablelock_credentials` by the transaction
-- that makes them, whichever process that is (an API instance, the CLI, a hand-written UPDATE),
-- so that every API process can re-check the WebSocket connections that relied on them.
-- The payload names the principal: {"userId": "<uuid>"} or {"apiKeyId": "<uuid>"}.

-- TG_ARGV: the payload's key, and the column of the changed row that holds the principal's id.
CREATE FUNCTION "tablelock"."announce_credential_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify(
    'tablelock_credentials',
    json_build_object(TG_ARGV[0], to_jsonb(OLD) ->> TG_ARGV[1])::text
  );
  RETURN NULL;
END
$$;

-- A session ends: logout, or all of a user's sessions at a new password or when disabled.
CREATE TRIGGER "session_revoked_announce"
    AFTER UPDATE OF "revoked_at" ON "tablelock"."session"
    FOR EACH ROW WHEN (OLD."revoked_at" IS NULL AND NEW."revoked_at" IS NOT NULL)
    EXECUTE FUNCTION "tablelock"."announce_credential_change"('userId', 'user_id');

CREATE TRIGGER "user_credentials_changed_announce"
    AFTER UPDATE ON "tablelock"."user"
    FOR EACH ROW WHEN (
        OLD."disabled" IS DISTINCT FROM NEW."disabled"
        OR OLD."password_hash" IS DISTINCT FROM NEW."password_hash"
        OR OLD."role" IS DISTINCT FROM NEW."role"
        OR OLD."username" IS DISTINCT FROM NEW."username")
    EXECUTE FUNCTION "tablelock"."announce_credential_change"('userId', 'id');

CREATE TRIGGER "user_deleted_announce"
    AFTER DELETE ON "tablelock"."user"
    FOR EACH ROW
    EXECUTE FUNCTION "tablelock"."announce_credential_change"('userId', 'id');

-- Not on last_used_at, which every use of a key may update.
CREATE TRIGGER "api_key_changed_announce"
    AFTER UPDATE ON "tablelock"."api_key"
    FOR EACH ROW WHEN (
        (OLD."revoked_at" IS NULL AND NEW."revoked_at" IS NOT NULL)
        OR OLD."role" IS DISTINCT FROM NEW."role"
        OR OLD."name" IS DISTINCT FROM NEW."name")
    EXECUTE FUNCTION "tablelock"."announce_credential_change"('apiKeyId', 'id');

CREATE TRIGGER "api_key_deleted_announce"
    AFTER DELETE ON "tablelock"."api_key"
    FOR EACH ROW
    EXECUTE FUNCTION "tablelock"."announce_credential_change"('apiKeyId', 'id');
