import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog';

/** What the author sends with the changes. */
export interface Submission {
  comment: string;
  /** Have the lock back after approval, to go on editing. */
  keepEditing: boolean;
}

interface SubmitForApprovalDialogProps {
  open: boolean;
  unsaved: number;
  busy: boolean;
  onSubmit: (submission: Submission) => void;
  onCancel: () => void;
}

/** Save on a table that needs approval: the changes go to an approver, with a comment. */
export function SubmitForApprovalDialog(props: SubmitForApprovalDialogProps) {
  const { t } = useTranslation();
  const [comment, setComment] = useState('');
  const [keepEditing, setKeepEditing] = useState(false);
  return (
    <Dialog
      open={props.open}
      title={t('table.submitForApproval')}
      onClose={props.onCancel}
      actions={
        <>
          <button type="button" className="button" onClick={props.onCancel}>
            {t('common.cancel')}
          </button>
          <button
            type="button"
            className="button primary"
            disabled={props.busy}
            onClick={() => props.onSubmit({ comment, keepEditing })}
          >
            {t('table.submitForApproval')}
          </button>
        </>
      }
    >
      <p>{t('table.submitExplained', { count: props.unsaved })}</p>
      <label htmlFor="submit-comment">{t('requests.comment')}</label>
      <textarea
        id="submit-comment"
        value={comment}
        rows={3}
        onChange={(event) => setComment(event.target.value)}
      />
      <label className="checkbox">
        <input
          type="checkbox"
          checked={keepEditing}
          onChange={(event) => setKeepEditing(event.target.checked)}
        />
        {t('table.keepAfterApproval')}
      </label>
    </Dialog>
  );
}
