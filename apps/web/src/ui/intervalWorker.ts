// A dedicated worker that posts a tick at the interval it is sent (see setBackgroundInterval).
let timer: ReturnType<typeof setInterval> | undefined;

self.onmessage = (event: MessageEvent<number>) => {
  clearInterval(timer);
  timer = setInterval(() => self.postMessage('tick'), event.data);
};
