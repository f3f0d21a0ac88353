import type { EditBlock } from '../../tables/editBlockMessage';

/**
 * Whether a row scope may still be taken where the whole table may not: nothing is in the way,
 * or only others' row scopes of the table (whose values the new scope must not overlap; the
 * API says so if it does). Anything else (an editor of the whole table, a freeze, a policy)
 * stands in a scope's way as much.
 */
export function onlyScopesInTheWay(block: EditBlock | null): boolean {
  if (block === null) return true;
  return (
    block.kind === 'beingEdited' &&
    block.blockers.length > 0 &&
    block.blockers.every((blocker) => blocker.rows != null)
  );
}
