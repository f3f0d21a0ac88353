/**
 * Like setInterval, but keeps its pace while the tab is hidden. After a few minutes in the
 * background Chrome runs a page's own repeating timers only once a minute, which would let a
 * 30 s lease run out while its editor is merely looking at another tab; a dedicated worker's
 * timers are not throttled that way, and its messages wake the page. Returns the stop.
 */
export function setBackgroundInterval(callback: () => void, ms: number): () => void {
  const worker = new Worker(new URL('./intervalWorker.ts', import.meta.url), { type: 'module' });
  worker.onmessage = () => callback();
  worker.postMessage(ms);
  return () => worker.terminate();
}
