export { EVENT_TYPES, type EventType, isEventType } from './eventTypes';
export { decodeFeedCursor, encodeFeedCursor, type FeedCursor } from './feedCursor';
export type { OutboxEvent } from './outboxEvent';
export {
  type ChangeFeedPage,
  type ChangeFeedRequest,
  type FeedEntry,
  MAX_FEED_PAGE,
  readChangeFeed,
} from './readChangeFeed';
export {
  type Delivered,
  type DeliverySettings,
  deliverNextWebhook,
  ROW_BATCH,
  resendWebhookDelivery,
  type WebhooksDue,
  webhooksDue,
} from './webhooks/deliverWebhooks';
export type { SendOutcome } from './webhooks/sendWebhook';
export {
  MAX_DELIVERIES_PAGE,
  purgeWebhookDeliveries,
  readWebhookDeliveries,
  readWebhookDelivery,
  type WebhookDeliveryRecord,
} from './webhooks/webhookDeliveries';
export {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  readWebhookForChange,
  updateWebhook,
  type WebhookEndpoint,
  type WebhookSettings,
  webhookSettingsOf,
} from './webhooks/webhookEndpoints';
