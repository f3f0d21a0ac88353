import { Prisma } from '@tablelock/db';
import type { CursorValues } from './rowCursor';
import { columnRef, typedValue } from './sqlFragments';
import { flipped, type OrderTerm } from './viewOrder';

const TRUE = Prisma.sql`TRUE`;
const FALSE = Prisma.sql`FALSE`;

/**
 * The rows strictly past the cursor's row when reading in this order (or `backwards`): keyset
 * paging, which costs the same on the last page as on the first. The lexicographic comparison
 * is spelled out term by term, because a row comparison `(a, b) > (x, y)` knows neither mixed
 * directions nor where NULLs sort (last going up, first going down). The first term's bound is
 * also stated alone, so that an index on the first sort column can start at the cursor.
 */
export function seekCondition(
  order: OrderTerm[],
  at: CursorValues,
  backwards: boolean,
): Prisma.Sql {
  const terms = order.map((term, i) => ({
    ...term,
    direction: backwards ? flipped(term.direction) : term.direction,
    value: at[i] ?? null,
  }));
  const alternatives = terms.map((term, i) =>
    allOf([...terms.slice(0, i).map(equalTo), after(term)]),
  );
  const first = terms[0];
  if (!first) return TRUE;
  return allOf([atOrAfter(first), anyOf(alternatives)]);
}

type SeekTerm = OrderTerm & { value: string | null };

function equalTo({ column, value }: SeekTerm): Prisma.Sql {
  const ref = columnRef(column);
  return value === null
    ? Prisma.sql`${ref} IS NULL`
    : Prisma.sql`${ref} = ${typedValue(column, value)}`;
}

/** The column's values that come after `value` in this direction, NULLs where Postgres puts them. */
function after({ column, direction, value }: SeekTerm): Prisma.Sql {
  const ref = columnRef(column);
  if (direction === 'asc') {
    if (value === null) return FALSE;
    const greater = Prisma.sql`${ref} > ${typedValue(column, value)}`;
    return column.nullable ? Prisma.sql`(${greater} OR ${ref} IS NULL)` : greater;
  }
  if (value === null) return column.nullable ? Prisma.sql`${ref} IS NOT NULL` : TRUE;
  return Prisma.sql`${ref} < ${typedValue(column, value)}`;
}

/** `after` or equal, as one range an index scan can start from. */
function atOrAfter({ column, direction, value }: SeekTerm): Prisma.Sql {
  const ref = columnRef(column);
  if (direction === 'asc') {
    if (value === null) return Prisma.sql`${ref} IS NULL`;
    const from = Prisma.sql`${ref} >= ${typedValue(column, value)}`;
    return column.nullable ? Prisma.sql`(${from} OR ${ref} IS NULL)` : from;
  }
  return value === null ? TRUE : Prisma.sql`${ref} <= ${typedValue(column, value)}`;
}

function allOf(parts: Prisma.Sql[]): Prisma.Sql {
  if (parts.includes(FALSE)) return FALSE;
  const kept = parts.filter((part) => part !== TRUE);
  return kept.length === 0 ? TRUE : Prisma.sql`(${Prisma.join(kept, ' AND ')})`;
}

function anyOf(parts: Prisma.Sql[]): Prisma.Sql {
  if (parts.includes(TRUE)) return TRUE;
  const kept = parts.filter((part) => part !== FALSE);
  return kept.length === 0 ? FALSE : Prisma.sql`(${Prisma.join(kept, ' OR ')})`;
}
