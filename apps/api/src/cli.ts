import { createInterface } from 'node:readline/promises';
import {
  createPrismaClient,
  openOperatorDatabase,
  type Role,
  type TakeOverRule,
} from '@tablelock/db';
import {
  createApiKey,
  createUser,
  listApiKeys,
  type SecurityAudit,
  updateUser,
} from '@tablelock/identity';
import { type FreezeRule, freezeTables, type TableSelection, thawTables } from '@tablelock/lock';
import { WRITE_GUARDS, type WriteGuard } from '@tablelock/master-data';
import { listWebhooks } from '@tablelock/outbox';
import { Command, Option } from 'commander';
import { pino } from 'pino';
import { revokeApiKeyReleasingLocks } from './accounts/revokeApiKeyReleasingLocks';
import { loadConfig } from './config';
import { changeTablePolicy, changeTakeOverRule } from './governance/auditedSettings';
import { changeWebhook, registerWebhook, removeWebhook } from './webhooks/auditedWebhooks';
import { installWriteGuards } from './writeGuard/installWriteGuards';

// Operator commands against the configured database: DATABASE_URL, or the embedded one under
// TABLELOCK_DATA_DIR (through the running app's Postgres while the app runs). Typical first step
// in production: create the first admin.

const ROLES = ['viewer', 'editor', 'admin'] as const;

async function withDatabase<T>(
  work: (prisma: ReturnType<typeof createPrismaClient>, audit: SecurityAudit) => Promise<T>,
) {
  const config = loadConfig(process.env);
  const database = await openOperatorDatabase({
    databaseUrl: config.DATABASE_URL,
    directDatabaseUrl: config.DATABASE_DIRECT_URL,
    dataDir: `${config.TABLELOCK_DATA_DIR}/postgres`,
    embeddedPort: config.EMBEDDED_PG_PORT,
  });
  const prisma = createPrismaClient(database.url, { poolSize: 1 });
  // Changes are recorded as made by `cli`, from no address, and logged to standard error:
  // standard output carries what the commands print (a new key's secret).
  const audit: SecurityAudit = {
    actor: 'cli',
    ip: null,
    logger: pino({ level: config.LOG_LEVEL }, pino.destination(2)),
  };
  try {
    return await work(prisma, audit);
  } finally {
    await prisma.$disconnect();
    await database.close();
  }
}

/** The password from standard input: the first line when piped, a prompt on a terminal. */
async function readPassword(): Promise<string> {
  const lines = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  if (process.stdin.isTTY) process.stderr.write('Password (input is shown): ');
  for await (const line of lines) {
    lines.close();
    return line.trim();
  }
  return '';
}

const roleOption = () =>
  new Option('--role <role>', 'viewer, editor or admin').choices(ROLES).makeOptionMandatory();

const program = new Command('tablelock')
  .description('tablelock operator commands')
  .showHelpAfterError();

program
  .command('create-user')
  .description('create a user; the password is read from standard input')
  .argument('<username>')
  .addOption(roleOption())
  .action(async (username: string, options: { role: Role }) => {
    const password = await readPassword();
    const user = await withDatabase((prisma, audit) =>
      createUser(prisma, { username, password, role: options.role }, audit),
    );
    console.log(`created user ${user.username} (${user.role})`);
  });

program
  .command('create-break-glass-admin')
  .description(
    'create an admin who may log in with a password even when PASSWORD_LOGIN=false (for when the OpenID provider is down); the password is read from standard input',
  )
  .argument('<username>')
  .action(async (username: string) => {
    const password = await readPassword();
    const user = await withDatabase((prisma, audit) =>
      createUser(prisma, { username, password, role: 'admin', breakGlass: true }, audit),
    );
    console.log(`created break-glass admin ${user.username}`);
  });

program
  .command('set-password')
  .description("set a user's password (read from standard input); ends the user's sessions")
  .argument('<username>')
  .action(async (username: string) => {
    const password = await readPassword();
    await withDatabase((prisma, audit) => updateUser(prisma, { username, password }, audit));
    console.log(`password of ${username} changed`);
  });

program
  .command('create-api-key')
  .description('create an API key for another system; prints the key once')
  .argument('<name>')
  .addOption(roleOption())
  .action(async (name: string, options: { role: Role }) => {
    const { apiKey, secret } = await withDatabase((prisma, audit) =>
      createApiKey(prisma, { name, role: options.role }, audit),
    );
    console.error(`created API key ${apiKey.name} (${apiKey.role}); it is shown only now:`);
    console.log(secret);
  });

program
  .command('list-api-keys')
  .description('list API keys (never their secrets)')
  .action(async () => {
    const keys = await withDatabase(listApiKeys);
    console.table(
      keys.map((key) => ({
        name: key.name,
        role: key.role,
        created: key.createdAt.toISOString(),
        lastUsed: key.lastUsedAt?.toISOString() ?? '',
        revoked: key.revokedAt?.toISOString() ?? '',
      })),
    );
  });

program
  .command('revoke-api-key')
  .description('revoke an API key; it stops working at once and its locks are released')
  .argument('<name>')
  .action(async (name: string) => {
    await withDatabase((prisma, audit) => revokeApiKeyReleasingLocks(prisma, name, audit));
    console.log(`revoked API key ${name}`);
  });

/** `all`, or the tables named. */
const selection = (tables: string[]): TableSelection =>
  tables.length === 1 && tables[0] === 'all' ? { all: true } : { tableNames: tables };

const onOff = (value: string) => {
  if (value !== 'on' && value !== 'off') throw new Error(`expected on or off, not ${value}`);
  return value === 'on';
};
const list = (value: string) => (value === '' ? [] : value.split(','));

program
  .command('table-policy')
  .description("change a table's policy (only the options given); recorded as a security event")
  .argument('<table>')
  .option('--read-only <on|off>', 'never edited in the app (still locked as an FK target)', onOff)
  .option('--locking <on|off>', 'off: never locked as an FK target, nor edited', onOff)
  .option('--edit-roles <roles>', 'comma-separated roles that may edit ("" for any)', list)
  .option('--edit-groups <groups>', 'comma-separated groups that may edit ("" for any)', list)
  .option('--max-lease <seconds>', 'cap on leases, 15–86400 ("none" for no cap)')
  .option('--approval <on|off>', 'on: every change is a request another person approves', onOff)
  .option(
    '--approver-roles <roles>',
    'comma-separated roles that may approve ("" for any editor)',
    list,
  )
  .option(
    '--approver-groups <groups>',
    'comma-separated groups that may approve ("" for any)',
    list,
  )
  .addOption(
    new Option(
      '--write-guard <guard>',
      'triggers on the table for writes without its lock',
    ).choices(WRITE_GUARDS),
  )
  .option('--label-column <column>', 'text column shown beside its keys ("" for the first)')
  .option(
    '--row-lock-column <column>',
    'column whose values row scopes name ("" for the primary key)',
  )
  .action(
    async (
      table: string,
      options: {
        readOnly?: boolean;
        locking?: boolean;
        editRoles?: Role[];
        editGroups?: string[];
        maxLease?: string;
        writeGuard?: WriteGuard;
        labelColumn?: string;
        rowLockColumn?: string;
        approval?: boolean;
        approverRoles?: Role[];
        approverGroups?: string[];
      },
    ) => {
      const change = {
        ...(options.readOnly !== undefined ? { readOnly: options.readOnly } : {}),
        ...(options.locking !== undefined ? { takesPartInLocking: options.locking } : {}),
        ...(options.editRoles ? { editRoles: options.editRoles } : {}),
        ...(options.editGroups ? { editGroups: options.editGroups } : {}),
        ...(options.maxLease !== undefined
          ? { maxLeaseSeconds: options.maxLease === 'none' ? null : Number(options.maxLease) }
          : {}),
        ...(options.writeGuard ? { writeGuard: options.writeGuard } : {}),
        ...(options.labelColumn !== undefined
          ? { labelColumn: options.labelColumn === '' ? null : options.labelColumn }
          : {}),
        ...(options.rowLockColumn !== undefined
          ? { rowLockColumn: options.rowLockColumn === '' ? null : options.rowLockColumn }
          : {}),
        ...(options.approval !== undefined ? { changesNeedApproval: options.approval } : {}),
        ...(options.approverRoles ? { approverRoles: options.approverRoles } : {}),
        ...(options.approverGroups ? { approverGroups: options.approverGroups } : {}),
      };
      const policy = await withDatabase(async (prisma, audit) => {
        const config = loadConfig(process.env);
        const guards = {
          masterSchema: config.MASTER_SCHEMA,
          writeGuardDefault: config.WRITE_GUARD_DEFAULT,
        };
        const changed = await changeTablePolicy(
          prisma,
          {
            tableName: table,
            change,
            writeGuardDefault: guards.writeGuardDefault,
            masterSchema: guards.masterSchema,
          },
          audit,
        );
        await installWriteGuards(prisma, guards, audit.logger);
        return changed;
      });
      console.log(JSON.stringify(policy, null, 2));
    },
  );

program
  .command('freeze')
  .description('freeze tables ("all" for every table): nobody may start editing them')
  .argument('<tables...>')
  .requiredOption('--reason <reason>', 'why (shown to users and recorded)')
  .option('--until <time>', 'when the freeze ends by itself (ISO 8601)')
  .addOption(
    new Option('--rule <rule>', 'what happens to those editing them')
      .choices(['waitForHolders', 'endLocks'])
      .default('waitForHolders'),
  )
  .action(
    async (tables: string[], options: { reason: string; until?: string; rule: FreezeRule }) => {
      const until = options.until ? new Date(options.until) : null;
      if (until && Number.isNaN(until.getTime())) throw new Error('--until is not a time');
      const outcome = await withDatabase((prisma) =>
        freezeTables(prisma, {
          ...selection(tables),
          reason: options.reason,
          until,
          rule: options.rule,
          actor: 'cli',
        }),
      );
      console.log(`frozen: ${outcome.frozen.join(', ')}`);
      if (outcome.endedLocks.length > 0)
        console.log(`locks ended: ${outcome.endedLocks.join(', ')}`);
    },
  );

program
  .command('thaw')
  .description('end the freeze of tables ("all" for every table)')
  .argument('<tables...>')
  .option('--reason <reason>', 'why (recorded)')
  .action(async (tables: string[], options: { reason?: string }) => {
    const thawed = await withDatabase((prisma) =>
      thawTables(prisma, { ...selection(tables), actor: 'cli', reason: options.reason ?? null }),
    );
    console.log(`thawed: ${thawed.join(', ') || 'none (none was frozen)'}`);
  });

program
  .command('take-over-rule')
  .description('who may take over a lock besides admins; recorded as a security event')
  .addOption(
    new Option('--rule <rule>', 'admins_only, own_sessions or idle_holder')
      .choices(['admins_only', 'own_sessions', 'idle_holder'])
      .makeOptionMandatory(),
  )
  .option('--idle-minutes <minutes>', 'for idle_holder: 1–1440', Number)
  .action(async (options: { rule: TakeOverRule; idleMinutes?: number }) => {
    const settings = await withDatabase((prisma, audit) =>
      changeTakeOverRule(prisma, { rule: options.rule, idleMinutes: options.idleMinutes }, audit),
    );
    console.log(`take-over rule: ${settings.rule} (idle ${settings.idleMinutes} min)`);
  });

program
  .command('create-webhook')
  .description("register an endpoint for the change feed's events; prints its signing secret once")
  .argument('<url>')
  .option('--events <types>', 'event types, comma-separated (default: all)', list)
  .option('--tables <tables>', 'tables, comma-separated (default: all)', list)
  .option('--with-rows', "send a change's rows too, in batches of up to 1,000")
  .action(
    async (url: string, options: { events?: string[]; tables?: string[]; withRows?: boolean }) => {
      const { WEBHOOK_ALLOWED_HOSTS } = loadConfig(process.env);
      const { webhook, secret } = await withDatabase((prisma, audit) =>
        registerWebhook(
          prisma,
          {
            url,
            eventTypes: options.events ?? [],
            tables: options.tables ?? [],
            withRows: options.withRows ?? false,
          },
          WEBHOOK_ALLOWED_HOSTS,
          audit,
        ),
      );
      console.error(`created webhook ${webhook.id}; its signing secret is shown only now:`);
      console.log(secret);
    },
  );

program
  .command('list-webhooks')
  .description('list the webhook endpoints (never their secrets)')
  .action(async () => {
    const webhooks = await withDatabase(listWebhooks);
    console.table(
      webhooks.map((webhook) => ({
        id: webhook.id,
        url: webhook.url,
        events: webhook.eventTypes.join(',') || 'all',
        tables: webhook.tables.join(',') || 'all',
        withRows: webhook.withRows,
        disabled: webhook.disabledAt
          ? `${webhook.disabledAt.toISOString()} ${webhook.disabledReason}`
          : '',
      })),
    );
  });

program
  .command('enable-webhook')
  .description('start a disabled webhook again where it stopped')
  .argument('<id>')
  .action(async (id: string) => {
    const { WEBHOOK_ALLOWED_HOSTS } = loadConfig(process.env);
    await withDatabase((prisma, audit) =>
      changeWebhook(prisma, id, { enabled: true }, WEBHOOK_ALLOWED_HOSTS, audit),
    );
    console.log(`webhook ${id} enabled`);
  });

program
  .command('delete-webhook')
  .description('delete a webhook (its delivery log is kept)')
  .argument('<id>')
  .action(async (id: string) => {
    await withDatabase((prisma, audit) => removeWebhook(prisma, id, audit));
    console.log(`webhook ${id} deleted`);
  });

try {
  await program.parseAsync();
} catch (error) {
  console.error(`error: ${(error as Error).message}`);
  process.exit(1);
}
