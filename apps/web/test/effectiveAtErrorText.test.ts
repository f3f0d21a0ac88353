import { describe, expect, it } from 'vitest';
import { GraphqlRequestError } from '../src/api/GraphqlRequestError';
import { effectiveAtErrorText } from '../src/schedule/effectiveAtErrorText';
import { translator } from './support/translator';

const refused = (extensions: Record<string, string>) =>
  new GraphqlRequestError([{ message: 'the API’s sentence', extensions }], 'NETWORK_ERROR');
const atTime = (iso: string) => `[${iso}]`;

describe('a refused time for a change, in words', () => {
  it('says that the time has passed, or how far ahead is allowed (en, ja)', async () => {
    const past = refused({ code: 'BAD_USER_INPUT', effectiveAt: 'past' });
    const tooFar = refused({
      code: 'BAD_USER_INPUT',
      effectiveAt: 'tooFar',
      latest: '2031-11-30T08:00:00.000Z',
    });
    const en = await translator('en');
    expect(effectiveAtErrorText(past, en, atTime)).toBe(
      'That time has passed. Choose a time to come, or save to apply the changes now.',
    );
    expect(effectiveAtErrorText(tooFar, en, atTime)).toBe(
      'That time is more than five years ahead. The latest possible is [2031-11-30T08:00:00.000Z].',
    );
    const ja = await translator('ja');
    expect(effectiveAtErrorText(past, ja, atTime)).toMatch(/^その日時は過ぎています。/);
    expect(effectiveAtErrorText(tooFar, ja, atTime)).toContain('[2031-11-30T08:00:00.000Z] まで');
  });

  it('leaves any other refusal to the usual words: the API’s own sentence', async () => {
    const other = refused({ code: 'BAD_USER_INPUT' });
    expect(effectiveAtErrorText(other, await translator('en'), atTime)).toBe('the API’s sentence');
  });
});
