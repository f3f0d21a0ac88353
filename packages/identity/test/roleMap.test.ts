import { describe, expect, it } from 'vitest';
import { groupsOfClaim, parseRoleMap, roleForGroups } from '../src/oidc/roleMap';

const map = parseRoleMap('tablelock-admins=admin, tablelock-editors=editor,*=viewer');

describe('roleForGroups', () => {
  it.each([
    [['tablelock-editors'], 'editor'],
    [['staff', 'tablelock-admins', 'tablelock-editors'], 'admin'],
    [['staff'], 'viewer'],
    [[], 'viewer'],
    // Matched exactly: another case is another group.
    [['TableLock-Editors'], 'viewer'],
  ])('gives %j the role %s (the highest that applies)', (groups, role) => {
    expect(roleForGroups(map, groups)).toBe(role);
  });

  it('gives no role when no group maps and there is no * rule', () => {
    expect(roleForGroups(parseRoleMap('editors=editor'), ['staff'])).toBeNull();
  });

  it('keeps an equals sign inside a group name (Entra ID may send DN-like names)', () => {
    expect(parseRoleMap('cn=editors=editor').rules).toEqual([
      { group: 'cn=editors', role: 'editor' },
    ]);
  });
});

describe('parseRoleMap', () => {
  it.each(['', 'editors', 'editors=owner', '=admin', ' , '])('refuses %j', (text) => {
    expect(() => parseRoleMap(text)).toThrow();
  });
});

describe('groupsOfClaim', () => {
  it.each([
    [
      ['a', 'b'],
      ['a', 'b'],
    ],
    ['a', ['a']],
    [['a', 1, null], ['a']],
    [undefined, []],
    [{ a: true }, []],
  ])('reads %j as %j', (claim, groups) => {
    expect(groupsOfClaim(claim)).toEqual(groups);
  });
});
