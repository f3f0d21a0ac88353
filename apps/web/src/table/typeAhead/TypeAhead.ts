import type { GridApi } from 'ag-grid-community';
import { type KeyboardEvent as ReactKeyboardEvent, useEffect, useEffectEvent } from 'react';
import type { GridRow } from '../changes/gridRow';

/** Keys that end an edit: replayed on the editor once it has the text typed before them. */
const ENDING_KEYS = new Set(['Enter', 'Tab', 'Escape']);

export interface TypedAhead {
  /** Printable keys typed before the editor mounted, Backspace applied. */
  text: (initial: string) => string;
  /** The key that ended the edit meanwhile (Enter, Tab or Escape), if one did. */
  endingKey: string | null;
  shiftKey: boolean;
}

/**
 * Keys typed into a cell while its editor is opening. The grid starts editing on the first key,
 * but a React editor mounts (and takes the focus) a moment later: on a busy or slow machine the
 * keys typed meanwhile reached the cell, not the editor, and were lost ("137" became "1", or
 * "17"). Barcode scanners and text expanders type that fast. They are kept here, in order, and
 * the editor takes them when it mounts (`take`).
 */
export class TypeAhead {
  private keys: string[] = [];
  private endingKey: { key: string; shiftKey: boolean } | null = null;
  /** Editors mounted now: the next may mount before the last unmounts (Tab to the next cell). */
  private editorsMounted = 0;

  /**
   * For the grid's container, in the capture phase: keeps a key meant for an editor that has not
   * mounted yet (a cell is being edited, yet the key went to a cell), so the grid does not act on
   * it. Answers whether it kept it.
   */
  capture(event: ReactKeyboardEvent, api: GridApi<GridRow> | null): boolean {
    if (this.editorsMounted > 0 || this.endingKey || !api) return false;
    const target = event.target;
    if (!(target instanceof Element) || !target.closest('.ag-cell')) return false;
    if (target.matches('input, select, textarea')) return false;
    if (event.ctrlKey || event.metaKey || event.altKey) return false;
    const printable = event.key.length === 1;
    if (!printable && event.key !== 'Backspace' && !ENDING_KEYS.has(event.key)) return false;
    if (api.getEditingCells().length === 0) return false;
    event.preventDefault();
    event.stopPropagation();
    if (ENDING_KEYS.has(event.key)) this.endingKey = { key: event.key, shiftKey: event.shiftKey };
    else this.keys.push(event.key);
    return true;
  }

  /** For an editor as it mounts: what was typed for it meanwhile; keys go to it from now on. */
  take(): TypedAhead {
    const keys = this.keys;
    const ending = this.endingKey;
    this.keys = [];
    this.endingKey = null;
    this.editorsMounted++;
    return {
      text: (initial) =>
        keys.reduce((text, key) => (key === 'Backspace' ? text.slice(0, -1) : text + key), initial),
      endingKey: ending?.key ?? null,
      shiftKey: ending?.shiftKey ?? false,
    };
  }

  /** For an editor as it unmounts: once none is open, the next one opens with nothing typed ahead. */
  closed(): void {
    this.editorsMounted = Math.max(0, this.editorsMounted - 1);
    if (this.editorsMounted > 0) return;
    this.keys = [];
    this.endingKey = null;
  }
}

/**
 * Replays the key that ended the edit before the editor mounted, on the editor itself, so the
 * grid and the editor act on it as on a key typed there: Enter keeps the value and moves down,
 * Tab moves on, Escape cancels.
 */
function replayEndingKey(editor: HTMLElement, typed: TypedAhead): void {
  if (!typed.endingKey) return;
  editor.dispatchEvent(
    new KeyboardEvent('keydown', {
      key: typed.endingKey,
      code: typed.endingKey,
      shiftKey: typed.shiftKey,
      bubbles: true,
      cancelable: true,
    }),
  );
}

/**
 * For a cell editor: once it has mounted, `open` starts it with what was typed for it meanwhile
 * (`typed.text(initial)`) and answers the element it focused, on which the key that ended the
 * edit meanwhile is then replayed. Its unmounting lets the next editor collect keys again.
 */
export function useTypedAhead(
  typeAhead: TypeAhead,
  open: (typed: TypedAhead) => HTMLElement | null,
): void {
  const opened = useEffectEvent(() => {
    const typed = typeAhead.take();
    const editor = open(typed);
    if (editor) replayEndingKey(editor, typed);
  });
  useEffect(() => {
    opened();
    return () => typeAhead.closed();
  }, [typeAhead]);
}

/** Focuses a text input holding `text`, the caret after it, ready to amend it (a spreadsheet's way). */
export function focusAtEnd(input: HTMLInputElement, text: string): void {
  input.focus();
  input.value = text;
  input.setSelectionRange(text.length, text.length);
}
