import { type ReactNode, useEffect, useLayoutEffect, useRef } from 'react';

interface DialogProps {
  open: boolean;
  title: string;
  /** Called on Escape or a Cancel button: the dialog does not close itself. */
  onClose: () => void;
  children: ReactNode;
  actions: ReactNode;
  tone?: 'default' | 'danger';
  /** For a dialog that shows a table: as wide as the screen allows, up to 960 px. */
  wide?: boolean;
}

/**
 * A modal on the native <dialog>: the browser traps focus, Escape closes it, the page behind is
 * inert, and closing gives the focus back to what had it. Content is mounted only while open,
 * so each opening starts fresh.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
  actions,
  tone = 'default',
  wide = false,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  // Unmounted while open (rendered only while needed): closed first, while still in the page,
  // so that the browser gives the focus back to what had it before.
  useLayoutEffect(() => {
    const dialog = ref.current;
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className={`dialog dialog-${tone}${wide ? ' dialog-wide' : ''}`}
      aria-labelledby="dialog-title"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {open && (
        <>
          <h2 id="dialog-title">{title}</h2>
          <div className="dialog-body">{children}</div>
          {actions && <div className="dialog-actions">{actions}</div>}
        </>
      )}
    </dialog>
  );
}
