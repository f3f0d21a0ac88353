import { type APIRequestContext, request } from '@playwright/test';
import { type DemoUser, signedInRequest } from './demoUsers';
import { graphql } from './graphql';

export type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;

export interface SavedSessions {
  /** `user`'s session cookie, for a browser context or a request context. */
  stateOf(user: DemoUser): Promise<StorageState>;
}

async function isStillSignedIn(baseURL: string, state: StorageState, user: DemoUser) {
  const context = await request.newContext({ baseURL, storageState: state });
  try {
    const answer = await graphql(context, '{ me { name } }');
    return (answer.data?.me as { name: string } | null | undefined)?.name === user;
  } finally {
    await context.dispose();
  }
}

/**
 * The demo users' sessions at the app at `baseURL`, each made through the real `login` mutation
 * the first time it is asked for and reused after: a sign-in per user, not per page. A session a
 * test ended (signing out ends it on the server) is replaced by a new one.
 */
export function savedSessions(baseURL: string): SavedSessions {
  const sessions = new Map<DemoUser, StorageState>();
  return {
    async stateOf(user) {
      const saved = sessions.get(user);
      if (saved && (await isStillSignedIn(baseURL, saved, user))) return saved;
      const context = await signedInRequest(baseURL, user);
      const state = await context.storageState();
      await context.dispose();
      sessions.set(user, state);
      return state;
    },
  };
}
