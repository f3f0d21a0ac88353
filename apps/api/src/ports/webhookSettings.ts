export type { DeliverySettings as WebhookSettings } from '@tablelock/outbox';
