import { describe, expect, it } from 'vitest';
import { EditHistory } from '../src/table/changes/EditHistory';

describe('EditHistory', () => {
  it('groups the edits of nested steps into one, and skips empty steps', () => {
    const history = new EditHistory<string>();
    history.step(() => {
      history.record('a');
      history.step(() => history.record('b'));
    });
    history.step(() => undefined);
    expect(history.takeUndo()).toEqual(['a', 'b']);
    expect(history.canUndo()).toBe(false);
  });

  it('moves steps between undo and redo, and a new edit empties redo', () => {
    const history = new EditHistory<string>();
    history.record('a');
    history.record('b');
    expect(history.takeUndo()).toEqual(['b']);
    expect(history.takeRedo()).toEqual(['b']);
    expect(history.takeUndo()).toEqual(['b']);
    history.record('c');
    expect(history.canRedo()).toBe(false);
    expect(history.takeUndo()).toEqual(['c']);
    expect(history.takeUndo()).toEqual(['a']);
  });

  it('keeps the step when the action throws', () => {
    const history = new EditHistory<string>();
    expect(() =>
      history.step(() => {
        history.record('a');
        throw new Error('stop');
      }),
    ).toThrow('stop');
    expect(history.takeUndo()).toEqual(['a']);
  });
});
