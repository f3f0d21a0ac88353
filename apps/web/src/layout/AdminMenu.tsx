import './adminMenu.css';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router';

// Locks is the admin area's first page, at /admin itself: matched exactly (`end`).
const ITEMS = [
  { to: '/admin/users', label: 'adminMenu.users', end: false },
  { to: '/admin/api-keys', label: 'adminMenu.apiKeys', end: false },
  { to: '/admin', label: 'adminMenu.locks', end: true },
  { to: '/admin/table-settings', label: 'adminMenu.tableSettings', end: false },
  { to: '/admin/webhooks', label: 'adminMenu.webhooks', end: false },
] as const;

/**
 * The header's one way into the admin area: a button that unfolds its pages (a disclosure, so
 * its links are ordinary links for the keyboard and screen readers). It folds on a choice, on
 * Escape and on a click elsewhere.
 */
export function AdminMenu() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // Open on the page it was opened on: any navigation (a page chosen) folds it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (shown: boolean) => setOpenOn(shown ? pathname : null);
  const listId = useId();
  const labelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const foldOnOutsideClick = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpenOn(null);
    };
    const foldOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenOn(null);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', foldOnOutsideClick);
    document.addEventListener('keydown', foldOnEscape);
    return () => {
      document.removeEventListener('pointerdown', foldOnOutsideClick);
      document.removeEventListener('keydown', foldOnEscape);
    };
  }, [open]);

  const inAdminArea = pathname === '/admin' || pathname.startsWith('/admin/');
  return (
    <div className="admin-menu" ref={root}>
      <button
        ref={button}
        id={labelId}
        type="button"
        className={`admin-menu-button${inAdminArea ? ' active' : ''}`}
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        onClick={() => setOpen(!open)}
      >
        {t('adminMenu.title')}
        <span className="admin-menu-caret" aria-hidden="true" />
      </button>
      {open && (
        <ul id={listId} className="admin-menu-list" aria-labelledby={labelId}>
          {ITEMS.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} end={item.end} onClick={() => setOpen(false)}>
                {t(item.label)}
              </NavLink>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
