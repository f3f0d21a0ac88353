import { describe, expect, it } from 'vitest';
import { leaseSecondsNamed } from '../src/table/lock/pageLease';

describe('leaseSecondsNamed', () => {
  it('takes the lease the server names', () => {
    expect(leaseSecondsNamed('10')).toBe(10);
    expect(leaseSecondsNamed('45')).toBe(45);
  });

  it.each([undefined, null, '', ' ', 'ten', '0', '-5', '2.5'])(
    'keeps the 30 s of its own when the page names none that can be a lease: %j',
    (content) => {
      expect(leaseSecondsNamed(content)).toBe(30);
    },
  );
});
