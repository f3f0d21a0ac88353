import { describe, expect, it } from 'vitest';
import { personName } from '../src/i18n/personName';

describe('personName', () => {
  it('gives a person さん in Japanese, and nothing in English', () => {
    expect(personName('alice', 'ja')).toBe('alice さん');
    expect(personName('alice', 'en')).toBe('alice');
  });

  it('gives no honorific to an API key or the system', () => {
    expect(personName('key:nightly-import', 'ja')).toBe('key:nightly-import');
    expect(personName('system', 'ja')).toBe('system');
  });
});
