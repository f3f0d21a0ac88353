import { type ReplicaSet, startReplicaSet } from './replicaSet';
import type { ReplicaTemplate } from './replicaTemplate';
import { prepareTablelockDatabase } from './tablelockDatabase';
import { openTestDatabase, type TestDatabase } from './testDatabase';

/** A tablelock database on a primary and two synchronous standbys, reached by the multi-host URL. */
export interface ReplicatedDatabase {
  replicas: ReplicaSet;
  /** `url` lists every server, primary only; `prisma` goes to the primary. */
  database: TestDatabase;
  close(): Promise<void>;
}

const DATABASE = 'tablelock';

/** A cluster holding the database as the app finds it after its first start. */
const TABLELOCK_CLUSTER: ReplicaTemplate = {
  name: 'tablelock',
  prepare: async (primary) => {
    await prepareTablelockDatabase(primary.url(), DATABASE);
  },
};

/** `settings`: more postgresql.conf settings for every server. */
export async function startReplicatedDatabase(
  settings: Record<string, string> = {},
): Promise<ReplicatedDatabase> {
  const replicas = await startReplicaSet({ settings, template: TABLELOCK_CLUSTER });
  const database = openTestDatabase(replicas.multiHostUrl(DATABASE));
  return {
    replicas,
    database,
    async close() {
      await database.close();
      await replicas.close();
    },
  };
}
