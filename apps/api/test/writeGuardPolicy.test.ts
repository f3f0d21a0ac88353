import { describe, expect, it } from 'vitest';
import { setTablePolicyMutation } from './support/governanceOperations';
import { useSignedInApi } from './support/signedInApi';
import { execute } from './support/testApi';

const signedIn = useSignedInApi();

describe("a table policy's write guard", () => {
  it('ENFORCE set by an admin installs triggers that refuse a write without the lock', async () => {
    const response = await execute(signedIn.admin, setTablePolicyMutation, {
      table: 'currencies',
      policy: { writeGuard: 'ENFORCE' },
    });
    expect(response.errors).toBeUndefined();
    expect(response.data?.setTablePolicy.writeGuard).toBe('ENFORCE');
    await expect(
      signedIn.database.prisma.$executeRaw`UPDATE master.currencies SET name = name`,
    ).rejects.toMatchObject({ message: expect.stringContaining('TL002') });

    const off = await execute(signedIn.admin, setTablePolicyMutation, {
      table: 'currencies',
      policy: { writeGuard: 'OFF' },
    });
    expect(off.data?.setTablePolicy.writeGuard).toBe('OFF');
    expect(
      await signedIn.database.prisma.$executeRaw`UPDATE master.currencies SET name = name`,
    ).toBeGreaterThan(0);
  });

  it('a new policy that sets other rules starts with the default guard', async () => {
    const response = await execute(signedIn.admin, setTablePolicyMutation, {
      table: 'regions',
      policy: { maxLeaseSeconds: 600 },
    });
    expect(response.data?.setTablePolicy.writeGuard).toBe('RECORD');
  });
});
