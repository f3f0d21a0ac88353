import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../src/passwordHash';

describe('password hashing', () => {
  it('verifies the password it hashed, in the documented scrypt$ format', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^scrypt\$\d+\$\d+\$\d+\$[\w-]+\$[\w-]+$/);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
  });

  it('rejects a wrong password, even one differing only in case', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(await verifyPassword('Correct horse battery staple', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('salts: two hashes of the same password differ, and both verify', async () => {
    const [first, second] = await Promise.all([hashPassword('same'), hashPassword('same')]);
    expect(first).not.toBe(second);
    expect(first.split('$')[4]).not.toBe(second.split('$')[4]);
    expect(await verifyPassword('same', first)).toBe(true);
    expect(await verifyPassword('same', second)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['another scheme', 'bcrypt$2b$10$abcdefghijklmnopqrstuv'],
    ['missing the key', 'scrypt$32768$8$1$c2FsdA'],
    ['plain text', 'hunter22'],
    // A key that decodes to no bytes once made every password match (an empty comparison).
    ['a key that decodes to nothing', 'scrypt$32768$8$1$c2FsdA$!!!!'],
    ['a one-character key', 'scrypt$32768$8$1$c2FsdA$a'],
  ])('a malformed stored hash (%s) verifies false', async (_label, stored) => {
    expect(await verifyPassword('hunter22', stored)).toBe(false);
  });
});
