import { createContext, type ReactNode, useCallback, useContext, useState } from 'react';
import { useTranslation } from 'react-i18next';

export type NoticeKind = 'success' | 'error' | 'info';

interface Notice {
  id: number;
  kind: NoticeKind;
  text: string;
}

type Notify = (kind: NoticeKind, text: string) => void;

const NoticeContext = createContext<Notify>(() => {});

// Errors stay until dismissed: a user who looked away must still be able to read what failed.
const SUCCESS_DISMISS_MS = 5000;

/** Short messages about what just happened, shown at the corner of the screen. */
export function NoticeProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [notices, setNotices] = useState<Notice[]>([]);
  const dismiss = useCallback((id: number) => {
    setNotices((current) => current.filter((notice) => notice.id !== id));
  }, []);
  const notify = useCallback<Notify>(
    (kind, text) => {
      const id = Date.now() + Math.random();
      setNotices((current) => [...current.slice(-3), { id, kind, text }]);
      if (kind !== 'error') setTimeout(() => dismiss(id), SUCCESS_DISMISS_MS);
    },
    [dismiss],
  );
  return (
    <NoticeContext.Provider value={notify}>
      {children}
      <div className="notices" role="status" aria-live="polite">
        {notices.map((notice) => (
          <div key={notice.id} className={`notice notice-${notice.kind}`}>
            <span>{notice.text}</span>
            <button
              type="button"
              className="notice-close"
              aria-label={t('common.dismiss')}
              onClick={() => dismiss(notice.id)}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </NoticeContext.Provider>
  );
}

export function useNotify(): Notify {
  return useContext(NoticeContext);
}
