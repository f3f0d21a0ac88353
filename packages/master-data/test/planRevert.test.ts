import { describe, expect, it } from 'vitest';
import type { RecordedRowChange } from '../src/history/historyRecords';
import { planRevert, type RevertInput } from '../src/history/planRevert';
import { rowKeyId } from '../src/history/rowKey';

const PARENT = [{ columns: ['parent_id'], targetColumns: ['id'] }];
let nextId = 1;
const change = (
  operation: RecordedRowChange['operation'],
  id: string,
  oldValues: RecordedRowChange['oldValues'],
  newValues: RecordedRowChange['newValues'],
): RecordedRowChange => ({ id: String(nextId++), key: { id }, operation, oldValues, newValues });

const plan = (input: Partial<RevertInput<string>> & Pick<RevertInput<string>, 'changes'>) =>
  planRevert<string>({
    laterChanges: new Map(),
    existsNow: new Set(),
    picked: null,
    selfReferences: PARENT,
    ...input,
  });
const exists = (...ids: string[]) => new Set(ids.map((id) => rowKeyId({ id })));

describe('planRevert', () => {
  it('restores updated columns, deletes inserted rows and brings deleted rows back', () => {
    const { steps, conflicts } = plan({
      changes: [
        change('update', '1', { name: 'Old' }, { name: 'New' }),
        change('insert', '2', null, { id: '2', name: 'Added', parent_id: null }),
        change('delete', '3', { id: '3', name: 'Gone', parent_id: null }, null),
      ],
      existsNow: exists('1', '2'),
    });
    expect(conflicts).toEqual([]);
    expect(steps).toEqual([
      { key: { id: '3' }, action: 'insert', values: { id: '3', name: 'Gone', parent_id: null } },
      { key: { id: '1' }, action: 'update', values: { name: 'Old' } },
      { key: { id: '2' }, action: 'delete', values: null },
    ]);
  });

  it('brings back parents before their children and deletes children before their parents', () => {
    const { steps } = plan({
      changes: [
        change('delete', '11', { id: '11', parent_id: '10' }, null),
        change('delete', '10', { id: '10', parent_id: null }, null),
        change('insert', '20', null, { id: '20', parent_id: null }),
        change('insert', '21', null, { id: '21', parent_id: '20' }),
      ],
      existsNow: exists('20', '21'),
    });
    expect(steps.map((step) => [step.action, step.key.id])).toEqual([
      ['insert', '10'],
      ['insert', '11'],
      ['delete', '21'],
      ['delete', '20'],
    ]);
  });

  it('leaves rows changed later alone and reports them, unless they are picked', () => {
    const changes = [
      change('update', '1', { name: 'A' }, { name: 'B' }),
      change('update', '2', { name: 'C' }, { name: 'D' }),
    ];
    const laterChanges = new Map([[rowKeyId({ id: '2' }), 'change 9']]);
    const all = plan({ changes, laterChanges, existsNow: exists('1', '2') });
    expect(all.steps.map((step) => step.key.id)).toEqual(['1']);
    expect(all.conflicts).toEqual([
      { key: { id: '2' }, reason: 'changedLater', later: 'change 9' },
    ]);
    const picked = plan({
      changes,
      laterChanges,
      existsNow: exists('1', '2'),
      picked: [{ id: '2' }],
    });
    expect(picked.steps).toEqual([{ key: { id: '2' }, action: 'update', values: { name: 'C' } }]);
    expect(picked.conflicts).toEqual([]);
  });

  it('reports a row whose state no longer matches the change, even without a later change', () => {
    const { steps, conflicts } = plan({
      changes: [
        change('update', '1', { name: 'A' }, { name: 'B' }),
        change('delete', '2', { id: '2', name: 'X' }, null),
      ],
      existsNow: exists('2'),
    });
    expect(steps).toEqual([]);
    expect(conflicts.map((c) => [c.key.id, c.reason])).toEqual([
      ['1', 'goneSince'],
      ['2', 'backSince'],
    ]);
  });

  it('cannot bring back a picked row deleted later when only some of its values are known', () => {
    const { steps, conflicts } = plan({
      changes: [change('update', '1', { name: 'A' }, { name: 'B' })],
      laterChanges: new Map([[rowKeyId({ id: '1' }), 'change 9']]),
      picked: [{ id: '1' }],
    });
    expect(steps).toEqual([]);
    expect(conflicts).toEqual([{ key: { id: '1' }, reason: 'changedLater', later: 'change 9' }]);
  });

  it('refuses a picked key the change did not touch', () => {
    expect(() =>
      plan({ changes: [change('update', '1', { a: '1' }, { a: '2' })], picked: [{ id: '5' }] }),
    ).toThrow(expect.objectContaining({ code: 'BAD_USER_INPUT' }));
  });
});
