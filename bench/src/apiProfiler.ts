import WebSocket from 'ws';
import type { CpuProfile } from './profileSteps';

/** The API process's V8 profiler, driven over its inspector (Chrome DevTools Protocol). */
export interface ApiProfiler {
  start(): Promise<void>;
  stop(): Promise<CpuProfile>;
  close(): void;
}

/** Connects to the inspector the API process opened on `port` (`--inspect=127.0.0.1:<port>`). */
export async function connectApiProfiler(port: number): Promise<ApiProfiler> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const target = targets[0];
  if (!target) throw new Error('the API process offers no inspector target');
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let lastId = 0;
  const answers = new Map<number, (result: unknown) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) answers.get(message.id)?.(message.result);
  });
  const send = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve) => {
      const id = ++lastId;
      answers.set(id, (result) => {
        answers.delete(id);
        resolve(result as T);
      });
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send('Profiler.enable');
  return {
    start: () => send('Profiler.start'),
    stop: async () => (await send<{ profile: CpuProfile }>('Profiler.stop')).profile,
    close: () => socket.close(),
  };
}
