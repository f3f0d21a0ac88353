import { request } from 'node:http';
import type { AnyResponse } from './postGraphql';

/**
 * How a POST ended, as the client saw it: answered in full; unanswered (no answer began: nothing
 * listened, or the connection was reset, which from outside cannot tell a request the server
 * never read from one it dropped); or cut after the answer began.
 */
export type PostOutcome =
  | { kind: 'answered'; status: number; body: AnyResponse }
  | { kind: 'unanswered'; code: string }
  | { kind: 'cut'; code: string };

/**
 * A POST to /graphql on a connection of its own (no keep-alive): a stopping server can refuse a
 * new connection, but a request it has taken is its to finish.
 */
export function postOnOwnConnection(
  url: string,
  headers: Record<string, string>,
  query: string,
  variables?: Record<string, unknown>,
): Promise<PostOutcome> {
  return new Promise((resolve) => {
    let answerBegan = false;
    const failed = (error: NodeJS.ErrnoException) =>
      resolve({ kind: answerBegan ? 'cut' : 'unanswered', code: error.code ?? error.message });
    const post = request(
      `${url}/graphql`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', ...headers } },
      (response) => {
        answerBegan = true;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', failed);
        // A promise keeps its first outcome: a cut answer closes without a complete body.
        response.on('close', () => {
          if (!response.complete) failed(new Error('incomplete answer'));
        });
        response.on('end', () => {
          resolve({
            kind: 'answered',
            status: response.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as AnyResponse,
          });
        });
      },
    );
    post.on('error', failed);
    post.end(JSON.stringify({ query, variables }));
  });
}
