import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { graphqlRequest } from '../../api/graphqlRequest';
import type { ScheduleImportDryRunMutation } from '../../generated/graphql';
import { ApplyOnForm, type Schedule } from '../../schedule/ApplyOnForm';
import { type DryRun, scheduleImportMutation } from './importOperations';

export type ScheduledImport = NonNullable<
  ScheduleImportDryRunMutation['submitChangeRequest']['request']
>;

interface ScheduleImportStepProps {
  table: string;
  token: string;
  dryRun: DryRun;
  /** The rows the dry run creates or updates. */
  writes: number;
  needsApproval: boolean;
  onCancel: () => void;
  onScheduled: (request: ScheduledImport, keepEditing: boolean) => void;
}

/**
 * "Apply on…" of a dry run without errors: its rows become a change request that the API
 * applies at the time chosen (decision 0023). A refused time stays here, in words, to correct.
 */
export function ScheduleImportStep(props: ScheduleImportStepProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const schedule = async ({ effectiveAt, editionId, comment, keepEditing }: Schedule) => {
    setBusy(true);
    setError(null);
    try {
      const { submitChangeRequest } = await graphqlRequest(scheduleImportMutation, {
        table: props.table,
        token: props.token,
        importDryRunId: props.dryRun.id,
        comment: comment.trim() || null,
        keepEditing,
        effectiveAt: effectiveAt?.toISOString() ?? null,
        editionId,
      });
      if (submitChangeRequest.request) props.onScheduled(submitChangeRequest.request, keepEditing);
    } catch (refusal) {
      setError(refusal);
      setBusy(false);
    }
  };
  return (
    <ApplyOnForm
      explanation={t('import.scheduleExplained', { count: props.writes })}
      needsApproval={props.needsApproval}
      busy={busy}
      error={error}
      onSchedule={(plan) => void schedule(plan)}
      onCancel={props.onCancel}
    />
  );
}
