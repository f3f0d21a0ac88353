import { existsSync } from 'node:fs';
import { appendFile, mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';
import { freePort } from './freePort';
import { poll } from './poll';
import { type PostgresServer, postgresServer, runPostgresTool } from './postgresServer';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A folder for the run's replica templates, owned by the servers' OS user (globalSetup). */
    replicaTemplatesDir: string;
  }
}

/** What a replica set's servers start from: a cleanly stopped primary's data folder. */
export interface ReplicaTemplate {
  /** Names the folder: one per distinct `prepare`. */
  name: string;
  /** Run on the primary before it is stopped: databases, migrations, data. */
  prepare?: (primary: PostgresServer) => Promise<void>;
}

/** What every server of every set runs with; a set adds its port and its own settings. */
export const BASE_SETTINGS: Record<string, string> = {
  listen_addresses: '127.0.0.1',
  unix_socket_directories: '',
  wal_keep_size: '256MB',
  wal_receiver_status_interval: '1s',
  shared_buffers: '32MB',
  fsync: 'off',
  full_page_writes: 'off',
  // A small folder copies fast: the stopped primary keeps few WAL segments for reuse.
  min_wal_size: '32MB',
};

/** How long a test process waits for another to finish the template it is making. */
const MADE_ELSEWHERE_TIMEOUT_MS = 120_000;

const madeHere = new Map<string, Promise<string>>();

/**
 * The data folder of `template`, made once per test run (initdb and `prepare`, some seconds)
 * and shared by the run's test processes, which copy it for each server of a set. The first
 * process to ask makes it; the others wait until its folder is in place.
 */
export function replicaTemplateDir(template: ReplicaTemplate): Promise<string> {
  let made = madeHere.get(template.name);
  if (!made) {
    made = makeOrAwait(template);
    madeHere.set(template.name, made);
  }
  return made;
}

async function makeOrAwait(template: ReplicaTemplate): Promise<string> {
  const root = inject('replicaTemplatesDir');
  const done = join(root, template.name);
  if (existsSync(done)) return done;
  try {
    await mkdir(join(root, `${template.name}.claimed`));
  } catch {
    return poll(`replica template ${template.name}`, MADE_ELSEWHERE_TIMEOUT_MS, async () =>
      existsSync(done) ? done : undefined,
    );
  }
  const building = join(root, `${template.name}.building`);
  await runPostgresTool('initdb', [
    ...['-D', building, '-U', 'postgres', '--auth=trust', '--no-sync'],
    ...['-E', 'UTF8', '--no-locale'],
  ]);
  await appendFile(join(building, 'postgresql.conf'), configLines(BASE_SETTINGS));
  await appendFile(
    join(building, 'pg_hba.conf'),
    'host all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n',
  );
  if (template.prepare) {
    const primary = postgresServer(template.name, building, await freePort());
    await appendFile(
      join(building, 'postgresql.conf'),
      configLines({ port: String(primary.port) }),
    );
    await primary.start();
    try {
      await template.prepare(primary);
    } finally {
      await primary.stop();
    }
  }
  // One step: a process that waits sees the whole folder or none of it.
  await rename(building, done);
  return done;
}

/** Lines for postgresql.conf; later lines win over earlier ones. */
export function configLines(settings: Record<string, string>): string {
  return `\n${Object.entries(settings)
    .map(([name, value]) => `${name} = '${value}'`)
    .join('\n')}\n`;
}
