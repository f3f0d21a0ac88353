import { describe, expect, it } from 'vitest';
import {
  LOCK_ACTIONS,
  readHistoryFilters,
  SECURITY_ACTIONS,
  toLockEventFilter,
  toSecurityEventFilter,
  writeHistoryFilters,
} from '../src/admin/historyFilters';

describe('history filters', () => {
  it('survive the round trip through the URL', () => {
    const filters = {
      table: 'products',
      user: 'alice',
      actions: ['force_release' as const, 'take_over' as const],
      from: '2026-05-01T09:00',
      to: '2026-05-01T18:30',
      page: 3,
      before: '1234',
      after: '',
    };
    const params = writeHistoryFilters(filters);
    expect(params.toString()).toBe(
      'table=products&user=alice&from=2026-05-01T09%3A00&to=2026-05-01T18%3A30&action=force_release&action=take_over&page=3&before=1234',
    );
    expect(readHistoryFilters(params, LOCK_ACTIONS)).toEqual(filters);
  });

  it('ignore what is not a filter: unknown actions, bad pages', () => {
    const params = new URLSearchParams('action=drop&action=save&page=-2&before=x1&after=-3');
    const filters = readHistoryFilters(params, LOCK_ACTIONS);
    expect(filters).toEqual({
      table: '',
      user: '',
      actions: ['save'],
      from: '',
      to: '',
      page: 1,
      before: '',
      after: '',
    });
    expect(writeHistoryFilters(filters).toString()).toBe('action=save');
  });

  it('send local times as instants, the whole last minute included', () => {
    const filter = toLockEventFilter({
      table: '',
      user: '  ',
      actions: [],
      from: '2026-05-01T09:00',
      to: '2026-05-01T18:30',
      page: 1,
      before: '',
      after: '',
    });
    expect(filter).toEqual({
      table: null,
      user: null,
      actions: null,
      from: new Date(2026, 4, 1, 9, 0).toISOString(),
      to: new Date(2026, 4, 1, 18, 31).toISOString(),
    });
  });

  it('leave out a time that is not one', () => {
    const filter = toLockEventFilter({
      table: '',
      user: '',
      actions: [],
      from: 'soon',
      to: '',
      page: 1,
      before: '',
      after: '',
    });
    expect(filter.from).toBeNull();
    expect(filter.to).toBeNull();
  });

  it('keep each history to its own actions: the security events take no lock action', () => {
    const params = new URLSearchParams('action=save&action=login_failed&user=alice');
    const filters = readHistoryFilters(params, SECURITY_ACTIONS);
    expect(filters.actions).toEqual(['login_failed']);
    expect(toSecurityEventFilter(filters)).toEqual({
      user: 'alice',
      actions: ['login_failed'],
      from: null,
      to: null,
    });
  });
});
