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
