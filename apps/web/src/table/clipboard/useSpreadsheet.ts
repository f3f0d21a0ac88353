import type { CellFocusedEvent, CellMouseOverEvent, GridApi } from 'ag-grid-community';
import {
  type KeyboardEvent as ReactKeyboardEvent,
  type MouseEvent as ReactMouseEvent,
  type RefObject,
  useEffect,
  useEffectEvent,
  useState,
} from 'react';
import { useNotify } from '../../ui/Notices';
import type { GridRow } from '../changes/gridRow';
import type { PendingChanges } from '../changes/PendingChanges';
import type { ColumnRules } from '../changes/validateValue';
import { type CellPoint, extendBy, type RangeBounds, singleCell } from './cellRange';
import { fillCopies, fillDownCopies } from './cellWrites';
import { copyRange } from './copyRange';
import { fillCells } from './fillCells';
import { GridCells } from './gridCells';
import { pasteBlock } from './pasteBlock';
import { RangeSelection } from './RangeSelection';
import { parseTsv } from './tsv';
import './range.css';

interface SpreadsheetOptions {
  api: GridApi<GridRow> | null;
  columns: readonly ColumnRules[];
  pending: PendingChanges;
  /** The user holds the lock: paste, fill, undo and redo change cells. */
  editable: boolean;
  container: RefObject<HTMLElement | null>;
}

const ARROWS: Record<string, [number, number]> = {
  ArrowUp: [-1, 0],
  ArrowDown: [1, 0],
  ArrowLeft: [0, -1],
  ArrowRight: [0, 1],
};

// The fill handle is the range's bottom right corner, drawn as a small square in CSS.
const HANDLE_SIZE = 10;

const isEditor = (element: Element) =>
  element.matches('input, select, textarea') || element.closest('.ag-cell-inline-editing') !== null;

/** A block is more than one cell: text with a tab, or more than one line (Excel adds a last line break). */
const isBlock = (text: string) => /[\t\n\r]/.test(text.replace(/\r?\n$/, ''));

/**
 * Spreadsheet habits on the grid, built on AG Grid Community's events (its range selection,
 * clipboard and fill handle are Enterprise modules; docs/decisions/0018-grid-clipboard.md):
 * a range of cells chosen with the mouse (drag, shift-click) or shift+arrows; Ctrl+C copies it
 * (as TSV and HTML) whether or not the user is editing; and while editing, Ctrl+V pastes a
 * block, Ctrl+D and the fill handle fill, Ctrl+Z and Ctrl+Y (Ctrl+Shift+Z) undo and redo.
 */
export function useSpreadsheet({ api, columns, pending, editable, container }: SpreadsheetOptions) {
  const notify = useNotify();
  const [selection] = useState(() => new RangeSelection());
  selection.fillable = editable;
  const cells = api ? new GridCells(api, columns) : null;
  selection.cells = cells;
  const [pointer] = useState(() => ({
    dragging: false,
    /** The mouse chose the range; the grid's focus event that follows must not replace it. */
    clicked: false,
    filling: null as RangeBounds | null,
  }));

  const repaint = () =>
    api?.refreshCells({ force: true, columns: columns.map((column) => column.name) });
  /** Selects what a paste or fill changed, from its top left cell. */
  const select = (bounds: RangeBounds) => {
    selection.range = {
      anchor: { row: bounds.top, column: bounds.left },
      focus: { row: bounds.bottom, column: bounds.right },
    };
    repaint();
  };
  const reportSkipped = (skipped: number) => {
    if (skipped > 0) notify('info', (t) => t('spreadsheet.skipped', { count: skipped }));
  };

  const pointAt = (element: Element): CellPoint | null => {
    const cell = element.closest('.ag-cell');
    const row = cell?.closest('.ag-row');
    const colId = cell?.getAttribute('col-id');
    const index = row?.getAttribute('row-index');
    if (!cells || !colId || !index) return null;
    const pinned = index.startsWith('t-');
    return cells.pointOf({
      rowIndex: Number(pinned ? index.slice(2) : index),
      rowPinned: pinned ? 'top' : null,
      column: colId,
    });
  };

  const onMouseDownCapture = (event: ReactMouseEvent) => {
    if (event.button !== 0 || !(event.target instanceof Element) || isEditor(event.target)) return;
    const point = pointAt(event.target);
    if (!point) return;
    const cell = event.target.closest('.ag-cell');
    const bounds = selection.bounds();
    if (editable && bounds && cell?.classList.contains('cell-range-handle')) {
      const box = cell.getBoundingClientRect();
      if (event.clientX > box.right - HANDLE_SIZE && event.clientY > box.bottom - HANDLE_SIZE) {
        // The handle, not the cell: the grid must not move the focus or start a text selection.
        event.preventDefault();
        event.stopPropagation();
        pointer.filling = bounds;
        return;
      }
    }
    pointer.dragging = true;
    pointer.clicked = true;
    if (event.shiftKey && selection.range) {
      event.preventDefault();
      selection.range = { anchor: selection.range.anchor, focus: point };
    } else {
      selection.range = singleCell(point);
    }
    repaint();
  };

  const onCellMouseOver = (event: CellMouseOverEvent<GridRow>) => {
    const buttons = (event.event as MouseEvent | null)?.buttons ?? 0;
    if ((buttons & 1) === 0 || !cells) return;
    const point = cells.pointOf({
      rowIndex: event.rowIndex,
      rowPinned: event.node.rowPinned ?? null,
      column: event.column,
    });
    if (!point) return;
    if (pointer.filling) {
      const source = pointer.filling;
      selection.fillTarget =
        point.row > source.bottom
          ? { ...source, top: source.bottom + 1, bottom: point.row }
          : point.row < source.top
            ? { ...source, top: point.row, bottom: source.top - 1 }
            : null;
      repaint();
    } else if (pointer.dragging && selection.range) {
      // Across cells the drag selects cells, not the text in them.
      window.getSelection()?.removeAllRanges();
      selection.range = { anchor: selection.range.anchor, focus: point };
      repaint();
    }
  };

  const endPointer = useEffectEvent(() => {
    pointer.dragging = false;
    const source = pointer.filling;
    const target = selection.fillTarget;
    pointer.filling = null;
    selection.fillTarget = null;
    if (!source || !target || !cells) return;
    reportSkipped(fillCells(cells, pending, fillCopies(source, target)));
    select({
      ...source,
      top: Math.min(source.top, target.top),
      bottom: Math.max(source.bottom, target.bottom),
    });
  });
  useEffect(() => {
    const onUp = () => endPointer();
    document.addEventListener('mouseup', onUp);
    return () => document.removeEventListener('mouseup', onUp);
  }, []);

  // Keyboard moves (arrows, Tab, Enter) focus one cell: the range starts again there.
  const onCellFocused = (event: CellFocusedEvent<GridRow>) => {
    const clicked = pointer.clicked;
    pointer.clicked = false;
    if (clicked || pointer.dragging || !cells || !event.column || event.rowIndex === null) return;
    const point = cells.pointOf({
      rowIndex: event.rowIndex,
      rowPinned: event.rowPinned ?? null,
      column: event.column,
    });
    if (!point) return;
    selection.range = singleCell(point);
    repaint();
  };

  const onKeyDownCapture = (event: ReactKeyboardEvent) => {
    pointer.clicked = false;
    if (!(event.target instanceof Element) || !cells) return;
    if (!event.target.closest('.ag-cell') || isEditor(event.target)) return;
    const command = event.ctrlKey || event.metaKey;
    const key = event.key.toLowerCase();
    const arrow = ARROWS[event.key];
    const handled = () => {
      event.preventDefault();
      event.stopPropagation();
    };
    if (arrow && event.shiftKey && !command && selection.range) {
      handled();
      const size = { rows: cells.rowCount(), columns: cells.columns().length };
      selection.range = extendBy(selection.range, arrow[0], arrow[1], size);
      const position = cells.position(selection.range.focus);
      if (position && !position.rowPinned) api?.ensureIndexVisible(position.rowIndex);
      if (position) api?.ensureColumnVisible(position.column);
      repaint();
      return;
    }
    if (!command || !editable) return;
    if (key === 'z' || key === 'y') {
      handled();
      if (key === 'y' || event.shiftKey) pending.redo();
      else pending.undo();
      return;
    }
    const bounds = selection.bounds();
    if (key === 'd' && bounds) {
      handled();
      reportSkipped(fillCells(cells, pending, fillDownCopies(bounds)));
    }
  };

  // Copy and paste events go to the focused cell or, when that is not editable text, the page.
  const onClipboard = useEffectEvent((event: ClipboardEvent) => {
    const focused = document.activeElement;
    const grid = container.current;
    if (!cells || !grid || !focused || !grid.contains(focused) || !event.clipboardData) return;
    const inEditor = isEditor(focused);
    const bounds = selection.bounds();
    if (event.type === 'copy') {
      // Text the user selected (a word of a cell, an open editor's text) copies as usual.
      if (inEditor || !bounds || !window.getSelection()?.isCollapsed) return;
      const { text, html } = copyRange(cells, bounds);
      event.clipboardData.setData('text/plain', text);
      event.clipboardData.setData('text/html', html);
      event.preventDefault();
      return;
    }
    const text = event.clipboardData.getData('text/plain');
    if (!editable || !bounds || (inEditor && !isBlock(text))) return;
    event.preventDefault();
    // A block pasted into an open editor goes into the cells, not into that one cell.
    if (inEditor) api?.stopEditing(true);
    const outcome = pasteBlock(cells, pending, bounds, parseTsv(text));
    if (outcome.pasted) select(outcome.pasted);
    reportSkipped(outcome.skipped);
  });
  useEffect(() => {
    const listener = (event: ClipboardEvent) => onClipboard(event);
    document.addEventListener('copy', listener);
    document.addEventListener('paste', listener);
    return () => {
      document.removeEventListener('copy', listener);
      document.removeEventListener('paste', listener);
    };
  }, []);

  return {
    /** For the element around the grid. */
    containerProps: { onMouseDownCapture, onKeyDownCapture },
    /** For the grid. */
    gridProps: { onCellFocused, onCellMouseOver, enableCellTextSelection: true },
    /** The classes that draw the range, for every column. */
    cellClassRules: selection.classRules,
  };
}
