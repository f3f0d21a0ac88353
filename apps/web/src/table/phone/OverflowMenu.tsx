import './phone.css';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';

interface OverflowMenuProps {
  /** The button's text, and the name of what it opens. */
  label: string;
  /** The actions, as buttons: a click on any of them closes the menu. */
  children: ReactNode;
}

/**
 * A toolbar's actions behind one button, for a screen too narrow to show them side by side: a
 * disclosure (the button says whether it is open), closed by Escape (the focus back on its
 * button), by a tap outside it or by one of its actions.
 */
export function OverflowMenu({ label, children }: OverflowMenuProps) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !root.current?.contains(document.activeElement)) return;
      event.stopPropagation();
      setOpen(false);
      button.current?.focus();
    };
    // An action's click reaches its own button first: it runs, then the menu closes.
    const onClick = (event: MouseEvent) => {
      if ((event.target as HTMLElement).closest('button')) setOpen(false);
    };
    const actions = panel.current;
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    actions?.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
      actions?.removeEventListener('click', onClick);
    };
  }, [open]);
  return (
    <div ref={root} className="overflow-menu">
      <button
        ref={button}
        type="button"
        className="button small"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
      >
        {label} <span aria-hidden="true">▾</span>
      </button>
      <div ref={panel} id={panelId} className="overflow-menu-panel" hidden={!open}>
        {children}
      </div>
    </div>
  );
}
