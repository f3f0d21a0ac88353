import { describe, expect, it } from 'vitest';
import { parsePrincipalName } from '../src/principalName';

describe('parsePrincipalName', () => {
  it.each(['system', 'cli', 'bench', 'oidc'])(
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

  it.each(['alice', 'system2', 'nightly-import', 'alice.smith+ops@example.com'])(
    'accepts %s',
    (name) => {
      expect(parsePrincipalName(name, 'username')).toBe(name);
    },
  );

  it.each(['Alice', '-alice', 'key:alice', 'a b', ''])('refuses %j', (name) => {
    expect(() => parsePrincipalName(name, 'username')).toThrow(
      expect.objectContaining({ code: 'BAD_USER_INPUT' }),
    );
  });
});
