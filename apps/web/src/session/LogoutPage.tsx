import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { graphqlRequest } from '../api/graphqlRequest';
import { LoadingState } from '../ui/LoadingState';
import { logoutMutation } from './sessionOperations';
import { authProvidersOptions } from './useAuthProviders';
import { sessionOptions } from './useSession';

/**
 * Signing out is a page of its own, so that leaving a table with unsaved edits asks first, like
 * any other navigation. The server ends the session and releases the user's locks; a user who
 * signed in through the OpenID provider is then sent to the provider to sign out there too.
 */
export function LogoutPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const signOut = async () => {
      const user = queryClient.getQueryData(sessionOptions.queryKey);
      const providers = await queryClient.fetchQuery(authProvidersOptions).catch(() => null);
      await graphqlRequest(logoutMutation).catch(() => undefined);
      queryClient.removeQueries();
      queryClient.setQueryData(sessionOptions.queryKey, null);
      // Signed in through the provider: end its session too (it comes back to /login).
      const providerSignOut = providers?.oidc?.signOutUrl;
      if (user?.roleSource === 'oidc' && providerSignOut) {
        window.location.assign(providerSignOut);
        return;
      }
      await navigate('/login', { replace: true });
    };
    void signOut();
  }, [queryClient, navigate]);
  return <LoadingState />;
}
