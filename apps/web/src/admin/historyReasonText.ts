import type { TFunction } from 'i18next';

/** The reasons the server itself writes into the history (packages/lock, apps/api/src/accounts). */
const SYSTEM_REASONS = {
  idle: 'idle',
  'lease expired': 'leaseExpired',
  logout: 'logout',
  'user disabled': 'userDisabled',
  'API key revoked': 'apiKeyRevoked',
} as const;

/**
 * A history event's reason for people: the server's own reasons in the user's language,
 * anything a person typed (a take-over's, a freeze's) as they typed it, marked as a quote.
 */
export function historyReasonText(
  event: { action: string; reason: string | null },
  t: TFunction,
): { text: string; quoted: boolean } | null {
  const { reason } = event;
  if (!reason) return null;
  const system = SYSTEM_REASONS[reason as keyof typeof SYSTEM_REASONS];
  if (system) return { text: t(`history.reasons.${system}`), quoted: false };
  const imported = event.action === 'save' ? /^import (.+)$/.exec(reason)?.[1] : undefined;
  if (imported) return { text: t('history.reasons.import', { file: imported }), quoted: false };
  return { text: reason, quoted: true };
}
