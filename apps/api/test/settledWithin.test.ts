import { describe, expect, it } from 'vitest';
import { settledWithin } from '../src/process/settledWithin';

describe('settledWithin', () => {
  it("gives a run's value when it settles in time", async () => {
    await expect(settledWithin(60_000, async () => 8)).resolves.toEqual({ done: true, value: 8 });
  });

  it('says a run that never settles is not done, and stops waiting for it', async () => {
    await expect(settledWithin(10, () => new Promise<never>(() => {}))).resolves.toEqual({
      done: false,
    });
  });

  it('rejects as the run does', async () => {
    await expect(
      settledWithin(60_000, () => Promise.reject(new Error('no database'))),
    ).rejects.toThrow('no database');
  });
});
