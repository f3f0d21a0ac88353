/** What `tablelock --help` prints. */
export const USAGE = `Usage: tablelock <command> [options]

  lock <table>... [--rows 11,12] [--wait 5m] [--lease 2m] [--grace 10s] [--pass-api-key] -- <command> [args...]
      Runs <command> while holding the tables (all or nothing), renewing the lease.
      --rows: a row scope of the one table (values of its row-lock column) instead.
      It gets TABLELOCK_TOKEN (one table), TABLELOCK_TOKENS ({"table":"token",...}) and
      TABLELOCK_URL; TABLELOCK_API_KEY only with --pass-api-key.
      If the lock is lost, the command gets SIGTERM, then SIGKILL after --grace.
  status [table] [--json]
      Every table (or one): status, editor, since, lease, locked by, waiters.
  release <table> --token <token>
      Releases your lock on <table> acquired under <token>.
  force-release <table> --reason <text>
      Ends whoever's lock on <table> (admin keys only).
  requests list [--table <t>] [--state <s>] [--to-decide] [--json]
      Four-eyes change requests, newest first (--to-decide: those waiting for this key).
  requests show <id> [--json]
      One request: its rows, old -> new, and how it was decided.
  requests approve <id> [--comment <text>] | requests reject <id> --comment <text>
      Decides a request (never one the key's own creator submitted).

Options of every command:
  --url <url>        the API, e.g. https://tablelock.example.com (default: TABLELOCK_URL)
  --api-key <key>    the API key (default: TABLELOCK_API_KEY; the variable keeps it out of ps)

Durations: 90 or 90s, 5m, 1h, 500ms. Exit status: the command's own when it ran; 75 the lock
could not be had in time; 76 the lock was lost while it ran; 64 wrong usage, unknown table or
bad key; 69 the API could not be reached; 70 the API failed; 1 any other refusal.
`;
