import { describe, expect, it } from 'vitest';
import {
  inLine,
  NOT_IN_LINE,
  type QueuePlace,
  type QueueWait,
  type QueueWaitEvent,
  reduceQueueWait,
  secondsLeft,
} from '../src/queue/queueWait';

const place = (
  state: QueuePlace['state'],
  ahead: string[] = [],
  reservedUntil: string | null = null,
): QueueWaitEvent => ({
  type: 'place',
  place: {
    table: 'products',
    state,
    position: ahead.length + 1,
    ahead: ahead.map((editor) => ({ editor })),
    reservedUntil,
  },
});

const after = (...events: QueueWaitEvent[]): QueueWait =>
  events.reduce(reduceQueueWait, NOT_IN_LINE);

describe('reduceQueueWait', () => {
  it('joins, then follows the places announced', () => {
    expect(after({ type: 'join' })).toEqual({ kind: 'joining' });
    expect(after({ type: 'join' }, place('waiting', ['alice', 'bob']))).toEqual({
      kind: 'waiting',
      position: 3,
      ahead: ['alice', 'bob'],
    });
    expect(
      after(
        { type: 'join' },
        place('waiting', ['alice']),
        place('yourTurn', [], '2026-05-01T10:01:00Z'),
      ),
    ).toEqual({ kind: 'yourTurn', reservedUntil: '2026-05-01T10:01:00Z' });
  });

  it('is out of the line once the user started editing, the subscription then ending', () => {
    const acquired = after({ type: 'join' }, place('yourTurn'), place('acquired'));
    expect(acquired).toEqual(NOT_IN_LINE);
    expect(reduceQueueWait(acquired, { type: 'ended' })).toEqual(NOT_IN_LINE);
  });

  it('keeps saying the turn ran out after the subscription ends, until the user leaves', () => {
    const expired = after({ type: 'join' }, place('yourTurn'), place('expired'), { type: 'ended' });
    expect(expired).toEqual({ kind: 'expired' });
    expect(inLine(expired)).toBe(false);
    expect(reduceQueueWait(expired, { type: 'leave' })).toEqual(NOT_IN_LINE);
    expect(reduceQueueWait(expired, { type: 'join' })).toEqual({ kind: 'joining' });
  });

  it('ignores places announced after the user left', () => {
    expect(after({ type: 'join' }, { type: 'leave' }, place('yourTurn'))).toEqual(NOT_IN_LINE);
  });

  it('leaves the line when the subscription ends without a last place (a refusal)', () => {
    expect(after({ type: 'join' }, { type: 'ended' })).toEqual(NOT_IN_LINE);
    expect(after({ type: 'join' }, place('waiting'), { type: 'ended' })).toEqual(NOT_IN_LINE);
  });

  it('does not join twice', () => {
    const waiting = after({ type: 'join' }, place('waiting', ['alice']));
    expect(reduceQueueWait(waiting, { type: 'join' })).toBe(waiting);
  });

  it('holds the subscription open while joining, waiting or at the turn', () => {
    expect(inLine(NOT_IN_LINE)).toBe(false);
    expect(inLine(after({ type: 'join' }))).toBe(true);
    expect(inLine(after({ type: 'join' }, place('waiting')))).toBe(true);
    expect(inLine(after({ type: 'join' }, place('yourTurn')))).toBe(true);
  });
});

describe('secondsLeft', () => {
  const until = '2026-05-01T10:01:00.000Z';
  const at = (iso: string) => Date.parse(iso);

  it('counts whole seconds, rounding up, so the last second shows as 1', () => {
    expect(secondsLeft(until, at('2026-05-01T10:00:00.000Z'))).toBe(60);
    expect(secondsLeft(until, at('2026-05-01T10:00:59.200Z'))).toBe(1);
  });

  it('never goes below 0', () => {
    expect(secondsLeft(until, at('2026-05-01T10:01:00.000Z'))).toBe(0);
    expect(secondsLeft(until, at('2026-05-01T10:05:00.000Z'))).toBe(0);
  });
});
