import { GraphqlRequestError } from '../api/GraphqlRequestError';

/**
 * Fetches `url` and saves the answer as a file, telling `onProgress` the bytes received so far
 * (and the whole size when the server says it; a streamed export does not). A refusal rejects
 * with the server's coded error. The file is gathered in a Blob, which Chromium keeps on disk
 * once it is large, then handed to the browser's own download.
 */
export async function downloadFile(
  url: string,
  fallbackName: string,
  onProgress: (loaded: number, total: number | null) => void,
): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (cause) {
    throw networkError(cause);
  }
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => null)) as {
      errors?: ConstructorParameters<typeof GraphqlRequestError>[0];
    } | null;
    if (body?.errors?.length) throw new GraphqlRequestError(body.errors, 'UNKNOWN');
    throw new GraphqlRequestError([{ message: `HTTP ${response.status}` }], 'NETWORK_ERROR');
  }
  const total = Number(response.headers.get('content-length')) || null;
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let loaded = 0;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.byteLength;
      onProgress(loaded, total);
    }
  } catch (cause) {
    throw networkError(cause);
  }
  const file = new Blob(chunks, {
    type: response.headers.get('content-type') ?? 'application/octet-stream',
  });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(file);
  link.download = fileNameOf(response.headers.get('content-disposition')) ?? fallbackName;
  link.click();
  // Not at once: a browser may read the URL a little after the click. Until it is revoked the
  // URL keeps the Blob alive.
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/**
 * The file name of `Content-Disposition: attachment; filename=…` (a token, or quoted), or of
 * `filename*=UTF-8''…`.
 */
function fileNameOf(disposition: string | null): string | null {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '')?.[1];
  if (encoded) return decodeURIComponent(encoded);
  const plain = /filename=(?:"([^"]+)"|([^;\s]+))/i.exec(disposition ?? '');
  return plain?.[1] ?? plain?.[2] ?? null;
}

function networkError(cause: unknown) {
  return new GraphqlRequestError(
    [{ message: cause instanceof Error ? cause.message : String(cause) }],
    'NETWORK_ERROR',
  );
}
