import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { describeError } from '../../ui/describeError';
import { type NoticeText, useNotify } from '../../ui/Notices';

/**
 * A change of users or API keys: `done` tells what happened (from the answer), a refusal is
 * told in the user's words; then the list under `listKey` is read again.
 */
export function useAccountChange<T, R>(
  change: (variables: T) => Promise<R>,
  done: (result: R, variables: T) => NoticeText | null,
  listKey: QueryKey,
) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (result, variables) => {
      const message = done(result, variables);
      if (message) notify('success', message);
    },
    onError: (error) => notify('error', (t) => describeError(error, t)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: listKey }),
  });
}
