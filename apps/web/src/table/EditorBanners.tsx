import { useTranslation } from 'react-i18next';
import { QueueBanner } from '../queue/QueueBanner';
import type { TableQueue } from '../queue/useWaitForTable';
import { roleAtLeast } from '../session/roles';
import type { SessionUser } from '../session/useSession';
import type { TableInfo } from '../tables/useTables';
import { OwnRequestBanner } from './changes/OwnRequestBanner';
import { DraftBanner } from './drafts/DraftBanner';
import type { DraftHandle } from './drafts/useDraft';
import { ConnectionLostBanner } from './lock/ConnectionLostBanner';
import { DueSoonBanner } from './lock/DueSoonBanner';
import { EditingElsewhereBanner } from './lock/EditingElsewhereBanner';
import { IdleWarningBanner } from './lock/IdleWarningBanner';
import { LockLostBanner } from './lock/LockLostBanner';
import type { EditSessionHandle } from './lock/useEditSession';
import type { useEditActions } from './useEditActions';

interface EditorBannersProps {
  info: TableInfo;
  user: SessionUser;
  edit: EditSessionHandle;
  actions: ReturnType<typeof useEditActions>;
  draft: DraftHandle;
  queue: TableQueue;
  /** How many changes are unsaved. */
  unsaved: number;
  /** The user holds the table's lock, through any tab. */
  holds: boolean;
  /** The lock waits with the user's pending change request. */
  awaitingApproval: boolean;
  connectionLoss: { leaseEndsAt: number } | null;
  /** The table can be edited at all (it has a primary key). */
  tableEditable: boolean;
}

/**
 * What the table page tells the user about their session, above the grid: a lost connection or
 * lock, the idle countdown, a draft to restore, their place in line, their change request, the
 * lock held in another tab.
 */
export function EditorBanners(props: EditorBannersProps) {
  const { info, user, edit, actions, draft, queue, unsaved, holds, awaitingApproval } = props;
  const { connectionLoss, tableEditable } = props;
  const { t } = useTranslation();
  const { session } = edit;
  const lockLost = session.kind === 'lost';
  const editing = session.kind === 'editing' || lockLost;
  return (
    <>
      {connectionLoss && <ConnectionLostBanner leaseEndsAt={connectionLoss.leaseEndsAt} />}
      <DueSoonBanner table={info.name} user={user.name} holds={holds} />
      {session.kind === 'editing' && session.idle !== 'active' && edit.idleDeadline && (
        <IdleWarningBanner
          table={info.name}
          releaseAt={edit.idleDeadline.releaseAt}
          ending={session.idle === 'ending'}
          onKeepEditing={edit.keepEditing}
        />
      )}
      {lockLost && (
        <LockLostBanner
          table={info.name}
          unsaved={unsaved}
          loss={session.loss}
          user={user.name}
          canStartAgain={info.editBlock === null}
          busy={actions.busy}
          // Still the editor, through another tab: starting again here is moving the lock back.
          onStartAgain={() => actions.takeLock(holds ? t('elsewhere.reason') : null)}
          onStop={actions.stop}
        />
      )}
      <DraftBanner draft={draft} editing={session.kind === 'editing'} busy={actions.busy} />
      {session.kind === 'viewing' && (
        <QueueBanner
          table={info.name}
          wait={queue.wait}
          busy={actions.busy}
          onStart={() => actions.openDialog('start')}
          onLeave={queue.leave}
        />
      )}
      {roleAtLeast(user.role, 'editor') && (
        <OwnRequestBanner
          table={info.name}
          user={user.name}
          onContinue={editing ? null : actions.continueWith}
        />
      )}
      {session.kind === 'elsewhere' && !awaitingApproval && (
        <EditingElsewhereBanner
          table={info.name}
          busy={actions.busy}
          onContinueHere={() => actions.takeLock(t('elsewhere.reason'))}
        />
      )}
      {!tableEditable && roleAtLeast(user.role, 'editor') && (
        <p className="banner banner-info">{t('table.noPrimaryKey')}</p>
      )}
    </>
  );
}
