import type { TFunction } from 'i18next';
import { en } from '../../i18n/en';

type KnownEventType = keyof typeof en.webhookEvents.types;

const isKnown = (key: string): key is KnownEventType => Object.hasOwn(en.webhookEvents.types, key);

/** An event type in the user's words; one the app has no words for yet, by its name. */
export function eventTypeLabel(type: string, t: TFunction): string {
  // A dot separates i18next's keys: `change.applied` has its words under `change_applied`.
  const key = type.replaceAll('.', '_');
  return isKnown(key) ? t(`webhookEvents.types.${key}`) : type;
}

/** An endpoint's event types as a list in words; none: all of them. */
export function eventTypesText(types: readonly string[], t: TFunction): string {
  return types.length === 0
    ? t('admin.webhooks.all')
    : types.map((type) => eventTypeLabel(type, t)).join(', ');
}
