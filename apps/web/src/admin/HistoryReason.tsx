import { useTranslation } from 'react-i18next';
import { historyReasonText } from './historyReasonText';

/** A history event's reason: the server's in the user's language, a person's quoted. */
export function HistoryReason({ event }: { event: { action: string; reason: string | null } }) {
  const { t } = useTranslation();
  const reason = historyReasonText(event, t);
  if (!reason) return null;
  return reason.quoted ? <q>{reason.text}</q> : <span>{reason.text}</span>;
}
