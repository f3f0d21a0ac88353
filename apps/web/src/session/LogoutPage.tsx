import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { graphqlRequest } from '../api/graphqlRequest';
import { SESSION_QUERY_KEY } from '../api/queryKeys';
import { LoadingState } from '../ui/LoadingState';
import { logoutMutation } from './sessionOperations';

/**
 * Signing out is a page of its own, so that leaving a table with unsaved edits asks first, like
 * any other navigation. The server ends the session and releases the user's locks.
 */
export function LogoutPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const signOut = async () => {
      await graphqlRequest(logoutMutation).catch(() => undefined);
      queryClient.removeQueries();
      queryClient.setQueryData(SESSION_QUERY_KEY, null);
      await navigate('/login', { replace: true });
    };
    void signOut();
  }, [queryClient, navigate]);
  return <LoadingState />;
}
