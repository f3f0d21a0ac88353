import { describe, expect, it } from 'vitest';
import { fromLocalInput, toLocalInput } from '../src/table/asOf/asOfTime';
import { ScheduledMarks } from '../src/table/asOf/scheduledMarks';

describe('the time the grid shows', () => {
  it('goes from the date-time field (local time) to an instant and back, to the minute', () => {
    const instant = new Date(2027, 0, 31, 23, 45);
    const field = toLocalInput(instant);
    expect(field).toBe('2027-01-31T23:45');
    expect(fromLocalInput(field)).toBe(instant.toISOString());
  });

  it('is no time when the field is empty or not a date', () => {
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('2027-13-45T99:99')).toBeNull();
  });
});

describe('the cells scheduled requests change', () => {
  it('are found by row and column, in the order they apply, and forgotten when a row has none', () => {
    const marks = new ScheduledMarks();
    const change = (column: string, request: string, value: string) => ({
      column,
      changeRequestId: request,
      effectiveAt: '2027-01-01T00:00:00.000Z',
      oldValue: null,
      newValue: value,
    });
    marks.remember('row-1', [
      change('name', '7', 'A'),
      change('price', '7', '1'),
      change('name', '9', 'B'),
    ]);
    expect(marks.of('row-1', 'name').map((found) => found.changeRequestId)).toEqual(['7', '9']);
    expect(marks.of('row-1', 'note')).toEqual([]);
    marks.remember('row-1', []);
    expect(marks.of('row-1', 'name')).toEqual([]);
  });
});
