// A lock holder in a process of its own, as another system's job would be: it acquires
// `table` for `leaseSeconds`, renews the lease every third of it, and saves one row when told
// to on stdin. A test pauses it (SIGSTOP) to show what happens to a holder that stops renewing.
// Prints one JSON line per step.
const [url, authorization, table, rowJson, leaseSeconds] = process.argv.slice(2);

// A keep-alive connection the server closed while this process was paused fails the first
// request sent on it, before the server sees it: such a request is sent once more.
async function graphql(query, variables, attempt = 1) {
  try {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ query, variables }),
    });
    return await response.json();
  } catch (error) {
    if (attempt > 1)
      return { errors: [{ message: String(error), extensions: { code: 'NETWORK' } }] };
    return graphql(query, variables, attempt + 1);
  }
}

const say = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);

const acquired = await graphql(
  'mutation($t: String!, $l: Int!) { acquireTableLock(table: $t, leaseSeconds: $l) { token } }',
  { t: table, l: Number(leaseSeconds) },
);
const token = acquired.data?.acquireTableLock?.token;
say({ step: 'acquired', token, errors: acquired.errors });

const renewal = setInterval(
  async () => {
    const renewed = await graphql(
      'mutation($t: String!, $k: String!, $l: Int!) { renewTableLock(table: $t, token: $k, leaseSeconds: $l) { token } }',
      { t: table, k: token, l: Number(leaseSeconds) },
    );
    say({ step: 'renewed', code: renewed.errors?.[0]?.extensions?.code ?? null });
  },
  (Number(leaseSeconds) * 1000) / 3,
);

process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) {
  if (!chunk.includes('save')) continue;
  const saved = await graphql(
    'mutation($t: String!, $k: String!, $c: RowChanges!) { saveRows(table: $t, token: $k, changes: $c) { saved } }',
    { t: table, k: token, c: { inserts: [{ values: JSON.parse(rowJson) }] } },
  );
  say({
    step: 'saved',
    saved: saved.data?.saveRows?.saved ?? null,
    code: saved.errors?.[0]?.extensions?.code ?? null,
  });
  clearInterval(renewal);
  break;
}
