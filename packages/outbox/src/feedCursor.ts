import { DomainError } from '@tablelock/errors';

/**
 * Where a reader of the outbox stands: per table, the position of the last event it has seen.
 * One position over all tables would not do: positions are drawn in commit order per table
 * only, so a reader past table A's position 9 may still find table B's 8 commit later.
 */
export type FeedCursor = Record<string, string>;

const POSITION = /^(0|[1-9][0-9]{0,18})$/;

export function encodeFeedCursor(cursor: FeedCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

/** The cursor `text` names, or BAD_USER_INPUT; null or empty: the start of the feed. */
export function decodeFeedCursor(text: string | null | undefined): FeedCursor {
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString());
  } catch {
    parsed = null;
  }
  const valid =
    typeof parsed === 'object' &&
    parsed !== null &&
    !Array.isArray(parsed) &&
    Object.values(parsed).every(
      (position) => typeof position === 'string' && POSITION.test(position),
    );
  if (!valid) throw new DomainError('BAD_USER_INPUT', 'This is not a cursor of the change feed.');
  return parsed as FeedCursor;
}

/** `cursor` moved past the event at `position` of `table`. */
export function advanceFeedCursor(cursor: FeedCursor, table: string, position: string): FeedCursor {
  return { ...cursor, [table]: position };
}
