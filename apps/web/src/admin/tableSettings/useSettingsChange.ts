import { useMutation, useQueryClient } from '@tanstack/react-query';
import { tablesOptions } from '../../tables/useTables';
import { describeError } from '../../ui/describeError';
import { type NoticeText, useNotify } from '../../ui/Notices';
import { tableSettingsOptions } from './tableSettingsOptions';

/** A settings change: tells `done` or the refusal, then reads settings and tables again. */
export function useSettingsChange<T>(change: (variables: T) => Promise<unknown>, done: NoticeText) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => notify('success', done),
    onError: (error) => notify('error', (t) => describeError(error, t)),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: tableSettingsOptions.queryKey }),
        queryClient.invalidateQueries({ queryKey: tablesOptions.queryKey }),
      ]),
  });
}
