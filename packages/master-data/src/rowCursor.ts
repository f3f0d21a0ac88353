import { createHash } from 'node:crypto';
import { z } from 'zod';
import { MasterDataError } from './masterDataError';
import type { RowView } from './rowView';
import type { MasterTable } from './tableColumns';
import type { OrderTerm } from './viewOrder';

/** A row's values in the order's columns, as text: where it stands in its view. */
export type CursorValues = (string | null)[];

const cursorBody = z.object({ view: z.string(), at: z.array(z.string().nullable()) });

/**
 * Names the view a cursor was made in. A cursor of one sort or filter means nothing in another:
 * its values would be compared with the wrong columns, or skip rows the other filter lets in.
 */
export function viewFingerprint(
  table: MasterTable,
  order: OrderTerm[],
  filter: RowView['filter'],
): string {
  const view = JSON.stringify([
    table.name,
    order.map(({ column, direction }) => [column.name, direction]),
    filter.map(({ column, operator, value }) => [column, operator, value ?? null]),
  ]);
  return createHash('sha256').update(view).digest('base64url').slice(0, 16);
}

/**
 * An opaque cursor: clients hand it back and never read it. Not signed: forging one only
 * chooses where a page starts, and its values reach SQL as typed parameters.
 */
export function encodeCursor(fingerprint: string, at: CursorValues): string {
  return Buffer.from(JSON.stringify({ view: fingerprint, at })).toString('base64url');
}

/** The position a cursor names, if it was made in this view; else BAD_USER_INPUT. */
export function decodeCursor(cursor: string, fingerprint: string, order: OrderTerm[]) {
  let body: z.infer<typeof cursorBody>;
  try {
    body = cursorBody.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw new MasterDataError('BAD_USER_INPUT', 'The cursor is not one this API gave out.');
  }
  if (body.view !== fingerprint || body.at.length !== order.length) {
    throw new MasterDataError(
      'BAD_USER_INPUT',
      'The cursor belongs to another table, sort or filter; read the first page of this view again.',
    );
  }
  return body.at;
}
