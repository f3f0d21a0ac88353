import { useQuery } from '@tanstack/react-query';
import { latestOwnRequestOptions } from '../../requests/changeRequestQueries';
import { roleAtLeast } from '../../session/roles';
import type { SessionUser } from '../../session/useSession';

/**
 * Whether the lock of `table` waits with the user's change request: she then neither starts
 * nor takes it over from the table page. Not a request that takes effect on a date: that one
 * holds no lock while it waits (decision 0023).
 */
export function useAwaitingApproval(table: string, user: SessionUser): boolean {
  const ownRequest = useQuery({
    ...latestOwnRequestOptions(table, user.name),
    enabled: roleAtLeast(user.role, 'editor'),
  }).data;
  return ownRequest?.state === 'pending' && !ownRequest.effectiveAt;
}
