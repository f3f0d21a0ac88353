import type { LockEventRecord } from '@tablelock/lock';

/** Resolves once `editor`'s `queued` event has come through `changes`. */
export async function untilQueued(
  changes: AsyncIterator<LockEventRecord | null>,
  editor: string,
): Promise<void> {
  for (;;) {
    const next = await changes.next();
    if (next.done) throw new Error('the lock feed ended');
    if (next.value?.action === 'queued' && next.value.editor === editor) return;
  }
}
