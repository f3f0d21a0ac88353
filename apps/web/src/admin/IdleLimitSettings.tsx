import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { graphqlRequest } from '../api/graphqlRequest';
import type { LockSettingsFieldsFragment } from '../generated/graphql';
import { tablesOptions } from '../tables/useTables';
import { describeError } from '../ui/describeError';
import { useNotify } from '../ui/Notices';
import { lockSettingsOptions } from './adminQueries';
import { type IdleLimitChange, IdleLimitForms } from './IdleLimitForms';
import { setIdleLimitMutation, setTableIdleLimitMutation } from './idleLimitOperations';

/**
 * Admins only: how long an editor may show no activity before the lock ends, for every table
 * and for single tables. Limits are entered in whole minutes.
 */
export function IdleLimitSettings({ tableNames }: { tableNames: readonly string[] }) {
  const { t } = useTranslation();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const settings = useQuery(lockSettingsOptions);
  const change = useMutation({
    mutationFn: async (request: IdleLimitChange): Promise<LockSettingsFieldsFragment> =>
      'table' in request
        ? (await graphqlRequest(setTableIdleLimitMutation, request)).setTableIdleLimit
        : (await graphqlRequest(setIdleLimitMutation, request)).setIdleLimit,
    onSuccess: (saved) => {
      queryClient.setQueryData(lockSettingsOptions.queryKey, saved);
      notify('success', (t) => t('idleLimits.saved'));
    },
    onError: (error) => notify('error', (t) => describeError(error, t)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tablesOptions.queryKey }),
  });

  return (
    <section className="page-section" aria-labelledby="idle-limits-title">
      <h2 id="idle-limits-title" className="section-title">
        {t('idleLimits.title')}
      </h2>
      <p className="muted">{t('idleLimits.subtitle')}</p>
      <div className="card idle-limits" data-testid="idle-limits">
        {settings.data ? (
          <IdleLimitForms
            settings={settings.data}
            tableNames={tableNames}
            busy={change.isPending}
            onChange={(request) => change.mutate(request)}
          />
        ) : settings.isError ? (
          <p className="banner banner-error">{describeError(settings.error, t)}</p>
        ) : null}
      </div>
    </section>
  );
}
