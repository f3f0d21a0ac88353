import type { Request } from 'express';
import { arrivalOf } from '../http/requestArrival';
import type { Credentials } from './authenticate';
import { SESSION_COOKIE } from './sessionCookie';

/** What an HTTP request (cookies parsed) offers as credentials: a session cookie, an API key. */
export const credentialsOf = (request: Request): Credentials => ({
  sessionToken: request.cookies?.[SESSION_COOKIE] ?? null,
  authorization: request.headers.authorization ?? null,
  receivedAt: arrivalOf(request),
});
