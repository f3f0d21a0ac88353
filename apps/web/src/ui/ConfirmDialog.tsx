import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  tone?: 'default' | 'danger';
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before something that cannot be undone; the safe choice has the focus. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { t } = useTranslation();
  const { open, title, children, confirmLabel, tone = 'default', busy = false } = props;
  return (
    <Dialog
      open={open}
      title={title}
      tone={tone}
      onClose={props.onCancel}
      actions={
        <>
          <button
            type="button"
            className="button subtle"
            onClick={props.onCancel}
            // biome-ignore lint/a11y/noAutofocus: the safe choice is focused in a confirmation
            autoFocus
          >
            {props.cancelLabel ?? t('common.cancel')}
          </button>
          <button
            type="button"
            className={`button ${tone === 'danger' ? 'danger' : 'primary'}`}
            onClick={props.onConfirm}
            disabled={busy}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
