import { Fragment, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { LoadingState } from '../ui/LoadingState';
import { useSession } from './useSession';

/** Renders the signed-in pages, or sends the user to log in and come back here. */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <LoadingState />;
  if (!session.data) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/login?next=${encodeURIComponent(next)}`} replace />;
  }
  // A different user gets the pages anew: the live socket authenticates once, when it connects.
  return <Fragment key={session.data.name}>{children}</Fragment>;
}
