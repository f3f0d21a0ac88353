import './Notices.css';
import type { TFunction } from 'i18next';
import { createContext, type ReactNode, useCallback, useContext, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export type NoticeKind = 'success' | 'error' | 'info';

/**
 * What a notice says: words of the app as a function of the language's `t`, so that a notice on
 * screen follows a switch of language; a plain string for words that come from elsewhere (the
 * server's).
 */
export type NoticeText = string | ((t: TFunction) => string);

const wordsOf = (text: NoticeText, t: TFunction) => (typeof text === 'string' ? text : text(t));

interface Notice {
  id: number;
  kind: NoticeKind;
  text: NoticeText;
  /** What the notice is about: a later success about it ends its errors. */
  topic: string;
  link?: NoticeLink;
}

/** Where to go about a notice: it then stays until dismissed, as something to act on. */
export interface NoticeLink {
  to: string;
  label: NoticeText;
}

/**
 * Tells the user something. `topic` (by default the page's address; CONNECTION for "the server
 * could not be reached") ties a notice to what it is about: a success or an info on a topic ends
 * the errors shown on it, which it resolves (a save that went through after one that failed).
 */
type Notify = (kind: NoticeKind, text: NoticeText, topic?: string, link?: NoticeLink) => void;

interface NoticeState {
  notices: readonly Notice[];
  notify: Notify;
  dismiss: (id: number) => void;
  /** Ends the errors of `topic`: what they told of is over. */
  resolve: (topic: string) => void;
}

const NoticeContext = createContext<NoticeState>({
  notices: [],
  notify: () => {},
  dismiss: () => {},
  resolve: () => {},
});

/** The topic of errors that say the server could not be reached. */
export const CONNECTION = 'connection';

// Errors stay until dismissed or resolved: a user who looked away must still be able to read
// what failed.
const SUCCESS_DISMISS_MS = 5000;
// A few at most: older ones go first.
const MOST_SHOWN = 4;

/** Short messages about what just happened; NoticeArea shows them. */
export function NoticeProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [notices, setNotices] = useState<Notice[]>([]);
  const dismiss = useCallback((id: number) => {
    setNotices((current) => current.filter((notice) => notice.id !== id));
  }, []);
  const notify = useCallback<Notify>(
    (kind, text, given, link) => {
      const words = wordsOf(text, t);
      const topic =
        given ?? (words === t('errors.network') ? CONNECTION : window.location.pathname);
      const id = Date.now() + Math.random();
      setNotices((current) => {
        const kept = current.filter(
          (notice) =>
            // The same words again are one notice, the newest.
            wordsOf(notice.text, t) !== words &&
            !(kind !== 'error' && notice.kind === 'error' && notice.topic === topic),
        );
        return [...kept, { id, kind, text, topic, link }].slice(-MOST_SHOWN);
      });
      if (kind !== 'error' && !link) setTimeout(() => dismiss(id), SUCCESS_DISMISS_MS);
    },
    [dismiss, t],
  );
  const resolve = useCallback((topic: string) => {
    setNotices((current) =>
      current.filter((notice) => notice.kind !== 'error' || notice.topic !== topic),
    );
  }, []);
  return (
    <NoticeContext.Provider value={{ notices, notify, dismiss, resolve }}>
      {children}
    </NoticeContext.Provider>
  );
}

/**
 * The notices, in the page's flow below the header: they push the page down rather than lie
 * over it, so they never hide a cell or a button.
 */
export function NoticeArea() {
  const { t } = useTranslation();
  const { notices, dismiss } = useContext(NoticeContext);
  return (
    <div className="notices" role="status" aria-live="polite" data-testid="notices">
      {notices.map((notice) => (
        <div key={notice.id} className={`notice notice-${notice.kind}`}>
          <span>
            {wordsOf(notice.text, t)}
            {notice.link && (
              <>
                {' '}
                <Link to={notice.link.to}>{wordsOf(notice.link.label, t)}</Link>
              </>
            )}
          </span>
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
  );
}

export function useNotify(): Notify {
  return useContext(NoticeContext).notify;
}

export function useResolveNotices(): (topic: string) => void {
  return useContext(NoticeContext).resolve;
}
