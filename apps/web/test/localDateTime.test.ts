import { describe, expect, it } from 'vitest';
import { fromLocalInput, localDay, toLocalInput } from '../src/schedule/localDateTime';

describe('a time typed in the user’s time zone', () => {
  it('is the same instant after the round trip through the input, to the second', () => {
    const instant = new Date('2027-03-31T23:59:58Z');
    const typed = toLocalInput(instant);
    expect(typed).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(fromLocalInput(typed)?.toISOString()).toBe(instant.toISOString());
    expect(localDay(instant.toISOString())).toBe(typed.slice(0, 10));
  });

  it('is no time when the input is empty or not a date', () => {
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('not a time')).toBeNull();
  });
});
