-- Fencing tokens rise across a failover (decision 0020): a token is the primary's timeline
-- times 2^40 plus the sequence's next value. A promoted standby writes a higher timeline than
-- the primary it replaces, so its tokens pass every one the old primary handed out, even those
-- whose grants were lost with it and whose sequence values the standby never saw.
-- The sequence stops at 2^40 - 1 rather than run into the next timeline's tokens.
ALTER SEQUENCE "tablelock"."fencing_token_seq" MAXVALUE 1099511627775;

CREATE FUNCTION "tablelock"."next_fencing_token"() RETURNS bigint
LANGUAGE sql VOLATILE
AS $$
  -- A WAL file's name starts with the timeline, in 8 hexadecimal digits.
  SELECT (('x' || substr(pg_walfile_name(pg_current_wal_lsn()), 1, 8))::bit(32)::bigint << 40)
         + nextval('"tablelock"."fencing_token_seq"')
$$;
