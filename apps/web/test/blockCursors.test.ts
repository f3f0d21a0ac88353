import { describe, expect, it } from 'vitest';
import { BlockCursors } from '../src/table/grid/blockCursors';

const ends = (block: string) => ({ startCursor: `${block}-first`, endCursor: `${block}-last` });

describe('BlockCursors', () => {
  it('reads a jump by offset and a neighbour of a loaded block by cursor, in both directions', () => {
    const cursors = new BlockCursors();
    expect(cursors.positionOf('by name', 5000, 5100)).toEqual({ offset: 5000 });
    cursors.remember('by name', 5000, 5100, ends('b50'));
    expect(cursors.positionOf('by name', 5100, 5200)).toEqual({ after: 'b50-last' });
    expect(cursors.positionOf('by name', 4900, 5000)).toEqual({ before: 'b50-first' });
    expect(cursors.positionOf('by name', 7000, 7100)).toEqual({ offset: 7000 });
  });

  it('forgets every cursor when the sort or filter changes, and ignores late answers', () => {
    const cursors = new BlockCursors();
    cursors.positionOf('by name', 0, 100);
    cursors.remember('by name', 0, 100, ends('b0'));
    expect(cursors.positionOf('by price', 100, 200)).toEqual({ offset: 100 });
    cursors.remember('by name', 100, 200, ends('b1'));
    expect(cursors.positionOf('by price', 200, 300)).toEqual({ offset: 200 });
  });

  it('reads by offset next to an empty block, which has no cursors', () => {
    const cursors = new BlockCursors();
    cursors.positionOf('none match', 0, 100);
    cursors.remember('none match', 0, 100, { startCursor: null, endCursor: null });
    expect(cursors.positionOf('none match', 100, 200)).toEqual({ offset: 100 });
  });
});
