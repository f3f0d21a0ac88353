import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { graphqlRequest } from '../api/graphqlRequest';
import { useFormatters } from '../i18n/useFormatters';
import { MoveRequestDialog } from '../schedule/MoveRequestDialog';
import { moveRequestMutation, withdrawRequestMutation } from '../schedule/scheduleOperations';
import { SCHEDULE_KEY } from '../schedule/scheduleQueries';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { describeError } from '../ui/describeError';
import { useNotify } from '../ui/Notices';
import { CHANGE_REQUESTS_KEY } from './changeRequestQueries';

interface ScheduledRequestActionsProps {
  id: string;
  effectiveAt: string;
  /** A request of an edition moves with its edition only. */
  inEdition: boolean;
}

/** Its author moves a request still waiting for its time, or withdraws it. */
export function ScheduledRequestActions({
  id,
  effectiveAt,
  inEdition,
}: ScheduledRequestActionsProps) {
  const { t } = useTranslation();
  const format = useFormatters();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<'move' | 'withdraw' | null>(null);
  const [busy, setBusy] = useState(false);
  const [moveError, setMoveError] = useState<unknown>(null);

  async function refresh() {
    await queryClient.invalidateQueries({ queryKey: CHANGE_REQUESTS_KEY });
    await queryClient.invalidateQueries({ queryKey: SCHEDULE_KEY });
  }

  async function move(to: Date) {
    setBusy(true);
    setMoveError(null);
    try {
      const { moveChangeRequest } = await graphqlRequest(moveRequestMutation, {
        id,
        effectiveAt: to.toISOString(),
      });
      setOpen(null);
      const at = moveChangeRequest.effectiveAt
        ? format.dateTimeSeconds(moveChangeRequest.effectiveAt)
        : '';
      notify('success', (tr) => tr('schedule.moved', { id, at }));
    } catch (error) {
      setMoveError(error);
    } finally {
      setBusy(false);
      await refresh();
    }
  }

  async function withdraw() {
    setBusy(true);
    try {
      await graphqlRequest(withdrawRequestMutation, { id });
      notify('success', (tr) => tr('schedule.withdrawn', { id }));
    } catch (error) {
      notify('error', (tr) => describeError(error, tr));
    } finally {
      setBusy(false);
      setOpen(null);
      await refresh();
    }
  }

  return (
    <div className="schedule-actions">
      {!inEdition && (
        <button
          type="button"
          className="button small"
          disabled={busy}
          onClick={() => {
            setMoveError(null);
            setOpen('move');
          }}
        >
          {t('schedule.moveAction')}
        </button>
      )}
      <button
        type="button"
        className="button small"
        disabled={busy}
        onClick={() => setOpen('withdraw')}
      >
        {t('schedule.withdrawAction')}
      </button>
      {open === 'move' && (
        <MoveRequestDialog
          id={id}
          effectiveAt={effectiveAt}
          busy={busy}
          error={moveError}
          onMove={(to) => void move(to)}
          onCancel={() => setOpen(null)}
        />
      )}
      <ConfirmDialog
        open={open === 'withdraw'}
        title={t('schedule.withdrawTitle', { id })}
        confirmLabel={t('schedule.withdrawAction')}
        tone="danger"
        busy={busy}
        onConfirm={() => void withdraw()}
        onCancel={() => setOpen(null)}
      >
        <p>{t('schedule.withdrawExplained')}</p>
      </ConfirmDialog>
    </div>
  );
}
