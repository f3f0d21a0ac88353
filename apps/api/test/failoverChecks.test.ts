import { describe, expect, it } from 'vitest';
import {
  fallingTokens,
  lostAcknowledgements,
  repeatedTokens,
  savesBehindSupersededTokens,
} from './support/failoverChecks';
import type { Acknowledgement } from './support/failoverLoad';

const event = (id: number, action: string, token: string | null, tableName = 'regions') => ({
  id: BigInt(id),
  action: action as 'acquire',
  tableName,
  token,
  editor: 'key:client-0',
});

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
});
