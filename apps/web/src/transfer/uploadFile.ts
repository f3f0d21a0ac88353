/** What the server answered an upload: its status and its JSON body (null if it sent none). */
export interface UploadAnswer {
  status: number;
  body: unknown;
}

export interface UploadHandlers {
  /** Bytes of the body sent so far. */
  onProgress(loaded: number, total: number): void;
  /** The whole body is sent: the server's part begins. */
  onSent(): void;
}

/**
 * POSTs `body` to `url` with XMLHttpRequest, because fetch reports no upload progress. Rejects
 * with a TypeError, as fetch does, when the request cannot be made or is cut off (`signal`:
 * the connection is closed, which tells the server that its answer is no longer wanted).
 */
export function uploadFile(
  url: string,
  body: Blob,
  headers: Record<string, string>,
  handlers: UploadHandlers,
  signal?: AbortSignal,
): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.open('POST', url);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) =>
      handlers.onProgress(event.loaded, event.lengthComputable ? event.total : body.size);
    request.upload.onload = () => handlers.onSent();
    request.onload = () =>
      resolve({ status: request.status, body: parseJson(request.responseText) });
    request.onerror = () => reject(new TypeError('The upload failed.'));
    request.onabort = () => reject(new TypeError('The upload was cut off.'));
    request.send(body);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
