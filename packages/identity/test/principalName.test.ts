import { describe, expect, it } from 'vitest';
import { parsePrincipalName } from '../src/principalName';

describe('parsePrincipalName', () => {
  it.each(['system', 'cli', 'bench'])(
    'refuses %s: the histories name non-principal actors so',
    (name) => {
      expect(() => parsePrincipalName(name, 'username')).toThrow(
        expect.objectContaining({
          code: 'BAD_USER_INPUT',
          message: expect.stringContaining('reserved'),
        }),
      );
    },
  );

  it.each(['alice', 'system2', 'nightly-import'])('accepts %s', (name) => {
    expect(parsePrincipalName(name, 'username')).toBe(name);
  });
});
