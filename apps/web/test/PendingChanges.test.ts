import { describe, expect, it } from 'vitest';
import type { GridRow } from '../src/table/changes/gridRow';
import { PendingChanges } from '../src/table/changes/PendingChanges';
import type { ColumnRules } from '../src/table/changes/validateValue';

const columns: ColumnRules[] = [
  { name: 'id', dataType: 'integer', kind: 'integer', nullable: false, hasDefault: false },
  { name: 'name', dataType: 'text', kind: 'text', nullable: false, hasDefault: false },
  { name: 'sku', dataType: 'text', kind: 'text', nullable: true, hasDefault: false, unique: true },
  { name: 'active', dataType: 'boolean', kind: 'boolean', nullable: false, hasDefault: true },
];

const stored = (id: string, name: string): GridRow => ({
  id,
  key: { id },
  version: `v${id}`,
  values: { id, name, active: 'true' },
});

describe('PendingChanges', () => {
  it('a row added with values (a row scope’s value) sends them with its insert', () => {
    const pending = new PendingChanges(columns);
    const row = pending.addRow({ name: 'Scoped' });
    pending.setValue(row, 'id', '7');
    expect(pending.toRowChanges().changes.inserts).toEqual([
      { values: { name: 'Scoped', id: '7' } },
    ]);
  });

  it('sends only changed columns, and forgets a change set back to the value read', () => {
    const pending = new PendingChanges(columns);
    const row = stored('1', 'Apple');
    pending.setValue(row, 'name', 'Apricot');
    expect(pending.toRowChanges().changes.updates).toEqual([
      { key: { id: '1' }, version: 'v1', values: { name: 'Apricot' } },
    ]);
    pending.setValue(row, 'name', 'Apple');
    expect(pending.counts().total).toBe(0);
  });

  it('keeps edits over a reloaded row, with the version first read', () => {
    const pending = new PendingChanges(columns);
    pending.setValue(stored('1', 'Apple'), 'name', 'Apricot');
    const reloaded = pending.overlay({ ...stored('1', 'Apple'), version: 'v9' });
    expect(reloaded.values.name).toBe('Apricot');
    expect(reloaded.version).toBe('v1');
  });

  it('names the version a save gave a row edited again before the grid read it back', () => {
    const pending = new PendingChanges(columns);
    const row = stored('1', 'Apple');
    const other = stored('2', 'Banana');
    pending.setValue(row, 'name', 'Apricot');
    pending.saved(pending.toRowChanges(), [{ index: 0, version: 'v5' }]);
    pending.setValue(row, 'name', 'Apple');
    pending.delete([other]);
    expect(pending.toRowChanges().changes).toMatchObject({
      updates: [{ key: { id: '1' }, version: 'v5', values: { name: 'Apple' } }],
      deletes: [{ key: { id: '2' }, version: 'v2' }],
    });
    // Read back after someone else changed it too: their version stands, and a save says so.
    pending.clear();
    pending.setValue({ ...stored('1', 'Avocado'), version: 'v7' }, 'name', 'Apple');
    expect(pending.toRowChanges().changes.updates?.[0]?.version).toBe('v7');
  });

  it('keeps what was edited while a save was on its way, over the saved values', () => {
    const pending = new PendingChanges(columns);
    const row = stored('1', 'Apple');
    const other = stored('2', 'Banana');
    pending.setValue(row, 'name', 'Apricot');
    pending.delete([stored('3', 'Cherry')]);
    const sent = pending.toRowChanges();
    pending.setValue(row, 'active', 'false');
    pending.setValue(other, 'name', 'Blueberry');
    pending.saved(sent, [{ index: 0, version: 'v5' }]);
    expect(pending.toRowChanges().changes).toEqual({
      inserts: [],
      updates: [
        { key: { id: '1' }, version: 'v5', values: { active: 'false' } },
        { key: { id: '2' }, version: 'v2', values: { name: 'Blueberry' } },
      ],
      deletes: [],
    });
    // Typed back to the value just saved: nothing left to save for it.
    pending.setValue(row, 'active', 'true');
    expect(pending.stateOf('1')).toBe('unchanged');
  });

  it('lets a deletion win over edits, and restores the edits when it is undone', () => {
    const pending = new PendingChanges(columns);
    const row = stored('1', 'Apple');
    pending.setValue(row, 'name', 'Apricot');
    pending.delete([row]);
    expect(pending.toRowChanges().changes).toMatchObject({
      updates: [],
      deletes: [{ key: { id: '1' }, version: 'v1' }],
    });
    pending.revert(row);
    expect(pending.stateOf('1')).toBe('changed');
  });

  it('flags required cells of new rows, and leaves out of the insert what a default fills', () => {
    const pending = new PendingChanges(columns);
    const row = pending.addRow();
    expect(pending.invalidCells().map((cell) => cell.column)).toEqual(['id', 'name']);
    pending.setValue(row, 'id', '7');
    pending.setValue(row, 'name', 'Cherry');
    expect(pending.invalidCells()).toEqual([]);
    expect(pending.toRowChanges().changes.inserts).toEqual([
      { values: { id: '7', name: 'Cherry' } },
    ]);
  });

  it('files save errors under the rows they came from, and clears them on the next edit', () => {
    const details = {
      kind: 'DUPLICATE',
      ...{ column: null, value: null, table: null, targetColumn: null, row: null, count: null },
      ...{
        comparison: null,
        bound: null,
        upperBound: null,
        rule: null,
        period: null,
        holder: null,
      },
    };
    const pending = new PendingChanges(columns);
    const first = stored('1', 'Apple');
    const second = stored('2', 'Banana');
    pending.setValue(first, 'name', 'A');
    pending.setValue(second, 'name', 'B');
    const { origins } = pending.toRowChanges();
    const unplaced = pending.setSaveErrors(
      [
        { change: 'update', index: 1, column: 'name', code: 'UNIQUE', message: 'taken', details },
        { change: 'insert', index: 5, column: null, code: 'CHECK', message: 'elsewhere', details },
      ],
      origins,
    );
    expect(pending.saveErrorsFor('2')).toEqual([
      { column: 'name', code: 'UNIQUE', message: 'taken', details },
    ]);
    expect(pending.saveErrorsFor('1')).toEqual([]);
    expect(unplaced).toEqual([{ column: null, code: 'CHECK', message: 'elsewhere', details }]);
    pending.setValue(second, 'name', 'C');
    expect(pending.saveErrorsFor('2')).toEqual([]);
  });
});

describe('PendingChanges before Save: duplicates of a UNIQUE column', () => {
  it('flags every new or changed row that holds the same value, and none once it is fixed', () => {
    const pending = new PendingChanges(columns);
    const first = pending.addRow({ id: '8', name: 'New', sku: 'SKU-1' });
    const second = pending.addRow({ id: '9', name: 'Newer', sku: 'SKU-2' });
    const changed = stored('1', 'Apple');
    expect(pending.invalidCells()).toEqual([]);
    pending.setValue(second, 'sku', 'SKU-1');
    pending.setValue(changed, 'sku', 'SKU-1');
    const duplicate = { code: 'duplicate' };
    expect(pending.invalidCells()).toEqual([
      { rowId: second.id, column: 'sku', issue: duplicate },
      { rowId: first.id, column: 'sku', issue: duplicate },
      { rowId: '1', column: 'sku', issue: duplicate },
    ]);
    expect(pending.cellIssue(first.id, 'sku')).toEqual(duplicate);
    expect(pending.cellIssue('1', 'sku')).toEqual(duplicate);
    pending.setValue(second, 'sku', 'SKU-2');
    pending.delete([changed]);
    expect(pending.invalidCells()).toEqual([]);
    expect(pending.cellIssue(first.id, 'sku')).toBeNull();
  });

  it('leaves NULLs and columns that are not UNIQUE alone', () => {
    const pending = new PendingChanges(columns);
    pending.addRow({ id: '8', name: 'Same', sku: '' });
    pending.addRow({ id: '9', name: 'Same' });
    pending.addRow({ id: '10', name: 'Same' });
    expect(pending.invalidCells()).toEqual([]);
  });
});

describe('PendingChanges undo and redo', () => {
  it('undoes and redoes one typed cell at a time, back to no changes at all', () => {
    const pending = new PendingChanges(columns);
    const row = stored('1', 'Apple');
    pending.setValue(row, 'name', 'Apricot');
    pending.setValue(row, 'name', 'Avocado');
    expect(pending.undo()).toBe(true);
    expect(row.values.name).toBe('Apricot');
    expect(pending.undo()).toBe(true);
    expect(row.values.name).toBe('Apple');
    expect(pending.counts().total).toBe(0);
    expect(pending.undo()).toBe(false);
    expect(pending.redo()).toBe(true);
    expect(pending.redo()).toBe(true);
    expect(pending.toRowChanges().changes.updates).toEqual([
      { key: { id: '1' }, version: 'v1', values: { name: 'Avocado' } },
    ]);
    expect(pending.redo()).toBe(false);
  });

  it('undoes a step (a paste) at once, with the rows it added, and tells listeners once', () => {
    const pending = new PendingChanges(columns);
    const row = stored('1', 'Apple');
    let heard = 0;
    pending.subscribe(() => heard++);
    pending.step(() => {
      pending.setValue(row, 'name', 'Pasted A');
      const [added] = pending.appendRows(1);
      if (added) pending.setValue(added, 'name', 'Pasted B');
    });
    expect(heard).toBe(1);
    expect(pending.counts()).toMatchObject({ inserts: 1, updates: 1 });
    pending.undo();
    expect(pending.counts().total).toBe(0);
    expect(row.values.name).toBe('Apple');
    pending.redo();
    expect(pending.newRows().map((added) => added.values.name)).toEqual(['Pasted B']);
    expect(row.values.name).toBe('Pasted A');
  });

  it('undoes a deletion and a revert, and a new edit ends what could be redone', () => {
    const pending = new PendingChanges(columns);
    const row = stored('1', 'Apple');
    pending.setValue(row, 'name', 'Apricot');
    pending.delete([row]);
    pending.undo();
    expect(pending.stateOf('1')).toBe('changed');
    pending.revert(row);
    expect(pending.stateOf('1')).toBe('unchanged');
    pending.undo();
    expect(row.values.name).toBe('Apricot');
    pending.setValue(row, 'name', 'Avocado');
    expect(pending.canRedo()).toBe(false);
  });

  it('undoes an edit on the row object the grid holds now, after the row was reloaded', () => {
    const pending = new PendingChanges(columns);
    pending.setValue(stored('1', 'Apple'), 'name', 'Apricot');
    pending.setValue(pending.overlay(stored('1', 'Apple')), 'name', 'Apple');
    const reloaded = pending.overlay(stored('1', 'Apple'));
    pending.undo();
    expect(reloaded.values.name).toBe('Apricot');
    expect(pending.stateOf('1')).toBe('changed');
  });

  it('forgets the history when the changes are saved or discarded', () => {
    const pending = new PendingChanges(columns);
    pending.setValue(stored('1', 'Apple'), 'name', 'Apricot');
    pending.clear();
    expect(pending.undo()).toBe(false);
  });
});

describe('PendingChanges as a draft', () => {
  it('comes back from its draft as the same changes, with the versions they were made on', () => {
    const pending = new PendingChanges(columns);
    pending.setValue(stored('1', 'Apple'), 'name', 'Apricot');
    pending.delete([stored('2', 'Banana')]);
    const added = pending.addRow();
    pending.setValue(added, 'name', 'Cherry');
    // Through JSON, as IndexedDB's structured clone keeps no class or shared object.
    const draft = JSON.parse(JSON.stringify(pending.toDraft()));

    const restored = new PendingChanges(columns);
    restored.restoreDraft(draft);
    expect(restored.toRowChanges().changes).toEqual(pending.toRowChanges().changes);
    expect(restored.counts()).toEqual({ inserts: 1, updates: 1, deletes: 1, total: 3 });
    // The grid loads row 1 as someone else left it: the edit stays, on the version it was made on.
    const shown = restored.overlay({ ...stored('1', 'Avocado'), version: 'v9' });
    expect(shown).toMatchObject({ version: 'v1', values: { name: 'Apricot' } });
    expect(restored.isChanged('1', 'name')).toBe(true);
  });

  it('replaces what was pending, and a restored edit set back to the value read is no change', () => {
    const restored = new PendingChanges(columns);
    restored.setValue(stored('3', 'Date'), 'name', 'Dragonfruit');
    const draft = new PendingChanges(columns);
    draft.setValue(stored('1', 'Apple'), 'name', 'Apricot');
    restored.restoreDraft(draft.toDraft());
    expect(restored.counts().total).toBe(1);
    const shown = restored.overlay(stored('1', 'Apple'));
    restored.setValue(shown, 'name', 'Apple');
    expect(restored.counts().total).toBe(0);
  });
});
