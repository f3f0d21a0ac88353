import { describe, expect, it } from 'vitest';
import {
  fallingTokens,
  lineBreaches,
  lostAcknowledgements,
  repeatedTokens,
  savesBehindSupersededTokens,
} from './support/failoverChecks';
import type { Acknowledgement } from './support/failoverLoad';

const event = (
  id: number,
  action: string,
  token: string | null,
  tableName = 'regions',
  editor = 'key:client-0',
  reason: string | null = null,
) => ({ id: BigInt(id), action: action as 'acquire', tableName, token, editor, reason });

const ack = (action: Acknowledgement['action'], token: string, table = 'regions') => ({
  action,
  table,
  token,
});

// The harness's checks pass on a good run; these show that each can also fail.
describe("the failover harness's checks", () => {
  it('find a save recorded behind a superseded token', () => {
    const history = [
      event(1, 'acquire', '10'),
      event(2, 'save', '10'),
      event(3, 'expire', '10'),
      event(4, 'save', '10'),
      event(5, 'acquire', '11'),
      event(6, 'save', '10'),
      event(7, 'save', '11'),
    ];
    expect(savesBehindSupersededTokens(history)).toEqual([
      'save regions 10 (grant: null)',
      'save regions 10 (grant: 11)',
    ]);
  });

  it('find tokens that fall or repeat in acknowledgement order, per table', () => {
    const acknowledged = [
      ack('acquire', '10'),
      ack('acquire', '5', 'currencies'),
      ack('release', '10'),
      ack('acquire', '9'),
      ack('acquire', '5', 'categories'),
    ];
    expect(fallingTokens(acknowledged)).toEqual(['regions: 10 then 9']);
    expect(repeatedTokens(acknowledged)).toEqual(['5']);
  });

  it('find acknowledgements the history does not hold', () => {
    const history = [event(1, 'acquire', '10'), event(2, 'save', '10')];
    expect(
      lostAcknowledgements(
        [ack('acquire', '10'), ack('save', '10'), ack('release', '10')],
        history,
      ),
    ).toEqual([ack('release', '10')]);
  });

  it('find waiters granted out of line order, lost, granted twice or dropped as gone', () => {
    const inLine = (waiter: string) => ({ waiter, event: 'inLine' as const });
    const granted = (waiter: string, token: string) => ({
      waiter,
      event: 'granted' as const,
      token,
    });
    const line = [
      inLine('key:w0'),
      inLine('key:w1'),
      inLine('key:w2'),
      inLine('key:w3'),
      granted('key:w1', '11'),
      granted('key:w0', '12'),
      { waiter: 'key:w2', event: 'refused' as const, code: 'LOCK_WAIT_TIMEOUT' },
    ];
    const history = [
      event(1, 'acquire', '11', 'categories', 'key:w1'),
      event(2, 'acquire', '12', 'categories', 'key:w0'),
      event(3, 'acquire', '13', 'categories', 'key:w0'),
      event(4, 'dequeued', null, 'categories', 'key:w3', 'gone'),
    ];
    expect(lineBreaches(line, history, 'categories')).toEqual([
      'key:w0 granted after key:w1, who joined later',
      'key:w0 granted 2 times',
      'key:w3 was in line, then neither granted nor refused',
      'key:w3 dropped from the line as gone',
    ]);
    const inOrder = [...line.slice(0, 4), granted('key:w0', '11'), granted('key:w1', '12')];
    expect(
      lineBreaches(
        [
          ...inOrder,
          { waiter: 'key:w2', event: 'refused', code: 'LOCK_WAIT_TIMEOUT' },
          granted('key:w3', '13'),
        ],
        [event(1, 'acquire', '11', 'categories', 'key:w0')],
        'categories',
      ),
    ).toEqual([]);
  });
});
