import { type ReplicatedDatabase, startReplicatedDatabase } from '@tablelock/test-support';
import { startTestApi, type TestApi, type TestClient } from './testApi';

/** The API in the test process on a replicated database (see startReplicatedDatabase). */
export interface ReplicatedTestApi extends Omit<ReplicatedDatabase, 'close'> {
  api: TestApi;
  /** An editor API key's client, `key:nightly`. */
  batch: TestClient;
  stop(): Promise<void>;
}

export async function startReplicatedTestApi(
  options: Parameters<typeof startTestApi>[1] = {},
): Promise<ReplicatedTestApi> {
  const { replicas, database, close } = await startReplicatedDatabase();
  let api: TestApi | undefined;
  try {
    api = await startTestApi(database, options);
    const batch = await api.withApiKey('nightly', 'editor');
    const started = api;
    return {
      replicas,
      database,
      api,
      batch,
      async stop() {
        await started.stop();
        await close();
      },
    };
  } catch (error) {
    await api?.stop();
    await close();
    throw error;
  }
}
