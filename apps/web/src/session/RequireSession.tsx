import { Navigate, Outlet, useLocation } from 'react-router';
import { LiveUpdates } from '../live/LiveUpdates';
import { LoadingState } from '../ui/LoadingState';
import { useSession } from './useSession';

/** Renders the signed-in pages, or sends the user to log in and come back here. */
export function RequireSession() {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <LoadingState />;
  if (!session.data) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={`/login?next=${encodeURIComponent(next)}`} replace />;
  }
  // A different user needs a socket of their own (it authenticates once, when it connects).
  return (
    <LiveUpdates key={session.data.name}>
      <Outlet />
    </LiveUpdates>
  );
}
