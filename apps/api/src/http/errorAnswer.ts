import type { Response } from 'express';
import { requestIdOf } from './requestId';

/** An error as GraphQL answers one, for the server's other routes: the code and the request's id. */
export function sendErrorAnswer(
  response: Response,
  status: number,
  code: string,
  message: string,
  details: Record<string, unknown> = {},
): void {
  response.status(status).json({
    errors: [{ message, extensions: { code, ...details, requestId: requestIdOf(response) } }],
  });
}
