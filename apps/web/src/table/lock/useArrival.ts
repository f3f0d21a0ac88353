import { useEffect, useEffectEvent } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** What the page that led here asked for: the tables page's Edit, the admin page's Take over. */
type Arrival = { startEditing?: boolean; takeOver?: boolean } | null;

export type ArrivalRequest = 'start' | 'takeOver';

/**
 * Hands the request the user arrived with to `onArrival`, once, as soon as the session is
 * `known`; it is then taken out of the history entry, so going back and forth does not repeat it.
 */
export function useArrival(known: boolean, onArrival: (request: ArrivalRequest) => void): void {
  const location = useLocation();
  const navigate = useNavigate();
  const arrival = location.state as Arrival;
  const wants = arrival?.startEditing ? 'start' : arrival?.takeOver ? 'takeOver' : null;
  const arrive = useEffectEvent(onArrival);
  useEffect(() => {
    if (!wants || !known) return;
    navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
    arrive(wants);
  }, [wants, known, navigate, location.pathname, location.search]);
}
