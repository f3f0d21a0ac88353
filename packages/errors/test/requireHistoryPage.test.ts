import { describe, expect, it } from 'vitest';
import { MAX_HISTORY_PAGE, requireHistoryPage } from '../src';

describe('requireHistoryPage', () => {
  it.each([
    { offset: -1, limit: 10 },
    { offset: 0, limit: 0 },
    { offset: 0, limit: MAX_HISTORY_PAGE + 1 },
    { offset: 1.5, limit: 10 },
    { offset: 0, limit: 2.5 },
  ])('refuses %o with BAD_USER_INPUT', (page) => {
    expect(() => requireHistoryPage(page)).toThrow(
      expect.objectContaining({ code: 'BAD_USER_INPUT' }),
    );
  });

  it.each([
    { offset: 0, limit: 1 },
    { offset: 10_000, limit: MAX_HISTORY_PAGE },
  ])('accepts %o', (page) => {
    expect(() => requireHistoryPage(page)).not.toThrow();
  });
});
