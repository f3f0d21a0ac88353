import { createTestDatabase, type TestDatabase } from '@tablelock/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperatorCli } from './support/operatorCli';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

/** Runs the compiled operator command line on the test database; its status and output. */
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runOperatorCli(args, { ...process.env, DATABASE_URL: database.url, ...env });

describe('the webhook commands', () => {
  it('create a webhook printing its secret once, list it without it, and delete it', async () => {
    const allowed = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' };
    const created = await cli(
      ['create-webhook', 'http://127.0.0.1:9/hooks', '--events', 'save,import', '--with-rows'],
      allowed,
    );
    expect(created.code).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{44}$/);
    const listed = await cli(['list-webhooks']);
    expect(listed.stdout).toContain('http://127.0.0.1:9/hooks');
    expect(listed.stdout).toContain('save,import');
    expect(listed.stdout).not.toContain(secret.slice(6));
    const [webhook] = await database.prisma.webhook.findMany();
    expect(webhook?.withRows).toBe(true);
    expect((await cli(['delete-webhook', String(webhook?.id)])).code).toBe(0);
    expect(await database.prisma.webhook.count()).toBe(0);
  });

  it('refuses a loopback address not in WEBHOOK_ALLOWED_HOSTS', async () => {
    const refused = await cli(['create-webhook', 'http://127.0.0.1:9/hooks']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('127.0.0.1 is a loopback address');
    expect(await database.prisma.webhook.count()).toBe(0);
  });
});
