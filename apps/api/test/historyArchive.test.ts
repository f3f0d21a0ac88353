import { describe, expect, it } from 'vitest';
import { useSignedInApi } from './support/signedInApi';
import type { TestClient } from './support/testApi';

const signedIn = useSignedInApi();

function archive(client: TestClient, query: Record<string, string> = {}) {
  const search = new URLSearchParams(query).toString();
  return fetch(`${signedIn.api.url}/export/history${search ? `?${search}` : ''}`, {
    headers: client.headers,
  });
}

const jsonLines = async (response: Response) =>
  (await response.text())
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** `count` lock events `daysAgo`, with a reason a spreadsheet would run as a formula. */
const lockEventsAt = (count: number, daysAgo: number, actor: string) => signedIn.database.prisma
  .$executeRaw`
    INSERT INTO tablelock.lock_event (at, action, table_name, actor, reason, details)
    SELECT now() - make_interval(days => ${daysAgo}::int), 'force_release', 'products', ${actor},
           '=HYPERLINK("http://example.com")', jsonb_build_object('n', n)
    FROM generate_series(1, ${count}::int) AS n`;

describe('the history archive (GET /export/history)', () => {
  it('streams every lock event in the time asked, oldest first, as JSON Lines', async () => {
    // More than one batch of the endpoint's reads.
    await lockEventsAt(2_500, 40, 'archived-user');
    await lockEventsAt(3, 400, 'too-old-user');
    const response = await archive(signedIn.admin, {
      from: new Date(Date.now() - 100 * 86_400_000).toISOString(),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    expect(response.headers.get('content-disposition')).toContain('lock-history.jsonl');
    const events = await jsonLines(response);
    const archived = events.filter((event) => event.actor === 'archived-user');
    expect(archived).toHaveLength(2_500);
    expect(events.some((event) => event.actor === 'too-old-user')).toBe(false);
    const ids = events.map((event) => BigInt(String(event.id)));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(archived[0]).toMatchObject({
      action: 'force_release',
      table: 'products',
      reason: '=HYPERLINK("http://example.com")',
      details: { n: 1 },
    });
  });

  it('writes CSV with a header, and text a spreadsheet would run is guarded', async () => {
    await lockEventsAt(1, 500, 'csv-user');
    const to = new Date(Date.now() - 499 * 86_400_000).toISOString();
    const response = await archive(signedIn.admin, { format: 'csv', to });
    expect(response.status).toBe(200);
    const lines = (await response.text()).replace('\uFEFF', '').trim().split('\r\n');
    expect(lines[0]).toBe('id,at,action,table,actor,editor,token,reason,rowsChanged,details');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://example.com"")"`);
    expect(lines[1]).toContain('csv-user');
  });

  it('exports the security events too', async () => {
    const response = await archive(signedIn.admin, { history: 'security' });
    const events = await jsonLines(response);
    expect(
      events.filter((event) => event.action === 'login').map((event) => event.subject),
    ).toEqual(expect.arrayContaining(['alice', 'bob', 'admin']));
  });

  it('is for admins only, and refuses a bad request with a coded error', async () => {
    const forbidden = await archive(signedIn.alice);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({
      errors: [{ extensions: { code: 'FORBIDDEN' } }],
    });
    const badRequests: Record<string, string>[] = [
      { history: 'rows' },
      { format: 'xml' },
      { from: 'yesterday' },
      { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' },
      { since: '2026-01-01' },
    ];
    for (const query of badRequests) {
      const refused = await archive(signedIn.admin, query);
      expect(refused.status, JSON.stringify(query)).toBe(400);
      expect(await refused.json()).toMatchObject({
        errors: [{ extensions: { code: 'BAD_USER_INPUT' } }],
      });
    }
  });
});
