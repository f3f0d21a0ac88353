import { type APIRequestContext, request } from '@playwright/test';
import { type DemoUser, signedInRequest } from './demoUsers';
import { graphql } from './graphql';

export type StorageState = Awaited<ReturnType<APIRequestContext['storageState']>>;

export interface SavedSessions {
  /** `user`'s session cookie at the app at `baseURL`, for a browser or a request context. */
  stateOf(baseURL: string | undefined, user: DemoUser): Promise<StorageState>;
}

async function isStillSignedIn(baseURL: string | undefined, state: StorageState, user: DemoUser) {
  const context = await request.newContext({ baseURL, storageState: state });
  try {
    const answer = await graphql(context, '{ me { name } }');
    return (answer.data?.me as { name: string } | null | undefined)?.name === user;
  } finally {
    await context.dispose();
  }
}

/**
 * The demo users' sessions, each made through the real `login` mutation the first time it is
 * asked for and reused after: a sign-in per user and app, not per page. A session a test ended
 * (signing out ends it on the server) is replaced by a new one.
 */
export function savedSessions(): SavedSessions {
  const sessions = new Map<string, StorageState>();
  return {
    async stateOf(baseURL, user) {
      const key = `${user} at ${baseURL}`;
      const saved = sessions.get(key);
      if (saved && (await isStillSignedIn(baseURL, saved, user))) return saved;
      const context = await signedInRequest(baseURL, user);
      const state = await context.storageState();
      await context.dispose();
      sessions.set(key, state);
      return state;
    },
  };
}
