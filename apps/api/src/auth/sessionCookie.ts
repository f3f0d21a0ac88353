import type { CookieOptions, Request } from 'express';

export const SESSION_COOKIE = 'tablelock_session';

/** HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site POSTs), Secure over HTTPS. */
export function sessionCookieOptions(request: Request, maxAgeSeconds?: number): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.secure,
    path: '/',
    ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds * 1000 }),
  };
}
