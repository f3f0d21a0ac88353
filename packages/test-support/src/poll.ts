/**
 * Calls `attempt` until it returns a value, pausing `intervalMs` between calls (so as not to
 * flood the API), and fails once `timeoutMs` has passed: for outcomes that take real time,
 * such as a lease running out.
 */
export async function poll<T>(
  what: string,
  timeoutMs: number,
  attempt: () => Promise<T | undefined>,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
