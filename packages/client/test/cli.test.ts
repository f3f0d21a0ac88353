import { poll, resetLockRegistry } from '@tablelock/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTablelockClient } from '../src';
import { type ClientTestApi, startClientTestApi } from './support/clientTestApi';
import { eventsOf, lockOf, waitingInLine } from './support/lockRecords';
import { runTablelock, tablelock } from './support/runTablelock';
import {
  acquireTableLockMutation,
  forceReleaseMutation,
  releaseTableLockMutation,
} from './support/testOperations';

let api: ClientTestApi;
let etl: { url: string; apiKey: string };
let admin: { url: string; apiKey: string };
let rivalKey: string;

beforeAll(async () => {
  api = await startClientTestApi();
  etl = { url: api.url, apiKey: await api.newKey('etl', 'editor') };
  admin = { url: api.url, apiKey: await api.newKey('ops', 'admin') };
  rivalKey = await api.newKey('rival', 'editor');
});
afterAll(() => api?.stop());
beforeEach(async () => {
  await api.liveSubscriptionsReach(0);
  await resetLockRegistry(api.database.prisma);
  await api.database.prisma.lockEvent.deleteMany();
});

const editing = (table: string) =>
  poll(`${table} being edited`, 10_000, async () => {
    const lock = await lockOf(api.database, table);
    return lock.status === 'editing' ? lock : undefined;
  });

describe('tablelock lock', () => {
  it('runs the command holding the lock, with its token, and exits with the command’s status', async () => {
    const run = await tablelock(
      ['lock', 'currencies', '--', 'sh', '-c', 'echo "$TABLELOCK_TOKEN $TABLELOCK_TOKENS"; exit 3'],
      etl,
    );

    expect(run.code, run.stderr).toBe(3);
    const events = await eventsOf(api.database, 'currencies');
    const token = events[0]?.token;
    expect(run.stdout).toBe(`${token} {"currencies":"${token}"}\n`);
    expect(events.map((event) => [event.action, event.actor, event.token])).toEqual([
      ['acquire', 'key:etl', token],
      ['release', 'key:etl', token],
    ]);
  });

  it('lock lost while the command runs: SIGTERM, SIGKILL after --grace, exit 76', async () => {
    const run = runTablelock(
      [
        'lock',
        'currencies',
        '--grace',
        '2s',
        '--',
        'sh',
        '-c',
        // Says it got SIGTERM and carries on, so that only SIGKILL ends it.
        'trap "echo got SIGTERM" TERM; while :; do sleep 1; done',
      ],
      etl,
    );
    await editing('currencies');
    await api.liveSubscriptionsReach(1);
    await api.send(admin.apiKey, forceReleaseMutation, {
      table: 'currencies',
      reason: 'wrong file',
    });

    expect(await run.exited).toEqual({ code: 76, signal: null });
    expect(run.stdout()).toBe('got SIGTERM\n');
    expect(run.stderr()).toBe(
      'tablelock: You no longer hold the lock: key:ops force-released your lock on currencies (reason: wrong file). Stopping sh (SIGTERM, SIGKILL after 2000 ms).\n',
    );
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const)(
    '%s to tablelock: passed on to the command, then the lock is released (exit %i)',
    async (signal, code) => {
      const run = runTablelock(['lock', 'regions', '--', 'sleep', '30'], etl);
      const { token } = await editing('regions');
      run.child.kill(signal);

      expect(await run.exited).toEqual({ code, signal: null });
      expect(await lockOf(api.database, 'regions')).toMatchObject({ status: 'normal' });
      expect((await eventsOf(api.database, 'regions')).at(-1)).toMatchObject({
        action: 'release',
        actor: 'key:etl',
        token,
      });
    },
  );

  it('a table someone else holds: exit 75 at once, naming them, and the command never runs', async () => {
    await api.send(rivalKey, acquireTableLockMutation, { table: 'regions' });
    const run = await tablelock(['lock', 'regions', '--', 'echo', 'ran'], etl);
    expect(run).toEqual({
      code: 75,
      stdout: '',
      stderr: 'tablelock: Refused: regions is being edited by key:rival.\n',
    });
  });

  it('--wait while someone else holds the table: exit 75 once the wait is over', async () => {
    await api.send(rivalKey, acquireTableLockMutation, { table: 'regions' });
    const run = await tablelock(['lock', 'regions', '--wait', '1s', '--', 'echo', 'ran'], etl);
    expect(run).toEqual({
      code: 75,
      stdout: '',
      stderr: 'tablelock: Waited 1 s; still in the way: regions is being edited by key:rival.\n',
    });
  });

  it('--wait: status shows it in line; it runs the command once the holder releases', async () => {
    const rival = await api.send(rivalKey, acquireTableLockMutation, { table: 'regions' });
    const run = runTablelock(['lock', 'regions', '--wait', '1m', '--', 'echo', 'ran'], etl);
    await waitingInLine(api.database, 'key:etl');
    const status = await tablelock(['status', 'regions'], etl);
    expect(status.stdout).toMatch(/^TABLE +STATUS +EDITOR +SINCE +LEASE +LOCKED BY +WAITERS\n/);
    expect(status.stdout).toMatch(
      /\nregions +editing +key:rival +.+ +- +key:etl \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\)\n$/,
    );

    await api.send(rivalKey, releaseTableLockMutation, {
      table: 'regions',
      token: rival.acquireTableLock.token,
    });
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.stdout()).toBe('ran\n');
  });

  it('the command gets the tokens and the URL, not the API key, unless --pass-api-key says so', async () => {
    const show = ['sh', '-c', 'printenv TABLELOCK_URL; printenv TABLELOCK_API_KEY || echo none'];
    const withoutKey = await tablelock(['lock', 'currencies', '--', ...show], etl);
    expect(withoutKey.code, withoutKey.stderr).toBe(0);
    expect(withoutKey.stdout).toBe(`${etl.url}\nnone\n`);

    const withKey = await tablelock(['lock', 'currencies', '--pass-api-key', '--', ...show], etl);
    expect(withKey.code, withKey.stderr).toBe(0);
    expect(withKey.stdout).toBe(`${etl.url}\n${etl.apiKey}\n`);
  });

  it('several tables: all or nothing, their tokens in TABLELOCK_TOKENS (no TABLELOCK_TOKEN)', async () => {
    const run = await tablelock(
      [
        'lock',
        'currencies',
        'categories',
        '--',
        'sh',
        '-c',
        'echo "$TABLELOCK_TOKENS"; test -z "$TABLELOCK_TOKEN" && echo "no TABLELOCK_TOKEN"',
      ],
      etl,
    );
    expect(run.code, run.stderr).toBe(0);
    const [currencies, categories] = await Promise.all(
      ['currencies', 'categories'].map(
        async (table) => (await eventsOf(api.database, table))[0]?.token,
      ),
    );
    expect(run.stdout).toBe(
      `{"categories":"${categories}","currencies":"${currencies}"}\nno TABLELOCK_TOKEN\n`,
    );
  });

  it('a command that does not exist: exit 127, and the lock is released', async () => {
    const run = await tablelock(['lock', 'categories', '--', 'no-such-command-here'], etl);
    expect(run.code).toBe(127);
    expect(run.stderr).toContain(
      'tablelock: cannot run no-such-command-here: spawn no-such-command-here ENOENT',
    );
    expect(await lockOf(api.database, 'categories')).toMatchObject({ status: 'normal' });
  });

  it.each([
    [['lock', 'categories'], 'Give the command to run after --'],
    [['lock', '--', 'true'], 'Name the tables to lock'],
    [['lock', 'categories', '--wait', 'soon', '--', 'true'], '--wait takes a duration'],
    [['lock', 'categories', '--colour', '--', 'true'], "Unknown option '--colour'"],
    [['unlock', 'categories'], 'Unknown command unlock.'],
  ])('bad usage %j: exit 64', async (args, message) => {
    const run = await tablelock(args, etl);
    expect(run.code).toBe(64);
    expect(run.stderr).toContain(message);
  });

  it('a wrong API key: exit 64, and nothing is locked', async () => {
    const run = await tablelock(['lock', 'categories', '--', 'true'], {
      url: api.url,
      apiKey: 'tlk_not-a-key',
    });
    expect(run).toMatchObject({ code: 64, stdout: '' });
    expect(run.stderr).toContain('The API key is not valid');
    expect(await eventsOf(api.database, 'categories')).toEqual([]);
  });
});

describe('tablelock status, release, force-release', () => {
  it('status shows who holds what; release frees it with its token; force-release is for admins', async () => {
    // Released under it through the command line, the client's lock is lost: so it ends.
    const holding = createTablelockClient(etl).withTableLock('currencies', async (lock) => {
      const json = await tablelock(['status', 'currencies', '--json'], etl);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual([
        {
          name: 'currencies',
          status: 'editing',
          editor: 'key:etl',
          lockedBy: [],
          acquiredAt: expect.any(String),
          leaseExpiresAt: expect.any(String),
          waiters: [],
        },
      ]);
      const text = await tablelock(['status'], etl);
      expect(text.stdout.split('\n')[0]).toMatch(/^TABLE +STATUS +EDITOR +SINCE +LEASE +LOCKED BY/);
      expect(text.stdout).toMatch(
        /\ncurrencies +editing +key:etl +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +(\d+m )?\d+s +- +-\n/,
      );

      expect(await tablelock(['force-release', 'currencies', '--reason', 'test'], etl)).toEqual({
        code: 64,
        stdout: '',
        stderr: 'tablelock: This needs the admin role; key:etl is a editor.\n',
      });
      expect(
        await tablelock(['release', 'currencies', '--token', lock.tokens.currencies ?? ''], etl),
      ).toEqual({ code: 0, stdout: 'currencies: normal\n', stderr: '' });
    });
    await expect(holding).rejects.toMatchObject({ code: 'LOCK_LOST' });

    await api.send(rivalKey, acquireTableLockMutation, { table: 'currencies' });
    expect(
      await tablelock(['force-release', 'currencies', '--reason', 'rival left'], admin),
    ).toEqual({ code: 0, stdout: 'currencies: normal\n', stderr: '' });
    expect(await tablelock(['status', 'nowhere'], etl)).toMatchObject({ code: 64 });
  });
});
