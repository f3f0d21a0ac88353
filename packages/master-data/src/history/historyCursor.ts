import { z } from 'zod';
import { MasterDataError } from '../masterDataError';

const cursorBody = z.object({ of: z.string(), id: z.string().regex(/^[1-9]\d{0,18}$/) });

/**
 * An opaque cursor of a history page: the last id shown and what the page was of (`scope`),
 * so that a cursor of one table's changes cannot page another's.
 */
export function encodeHistoryCursor(scope: string, id: string): string {
  return Buffer.from(JSON.stringify({ of: scope, id })).toString('base64url');
}

/** The id a cursor names, if it was made for `scope`; else BAD_USER_INPUT. */
export function decodeHistoryCursor(cursor: string, scope: string): string {
  let body: z.infer<typeof cursorBody>;
  try {
    body = cursorBody.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw new MasterDataError('BAD_USER_INPUT', 'The cursor is not one this API gave out.');
  }
  if (body.of !== scope) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      'The cursor belongs to another list; read its first page again.',
    );
  }
  return body.id;
}

/** `first` within 1–max, else BAD_USER_INPUT. */
export function pageSize(first: number, max: number): number {
  if (!Number.isInteger(first) || first < 1 || first > max) {
    throw new MasterDataError('BAD_USER_INPUT', `first must be between 1 and ${max}.`);
  }
  return first;
}
