/** Where a sign-in leads when the page asked for is missing or not one of this app's. */
export const HOME_PAGE = '/tables';

// Any origin would do: only whether `next` keeps to it matters.
const THIS_APP = 'http://tablelock.invalid';

/**
 * `next` as a path of this app, else the home page: it comes from the URL and must not lead
 * elsewhere. Read as the browser reads it, which takes `/\host` for `//host` and drops tabs
 * and line breaks.
 */
export function safeNext(next: string | null): string {
  if (!next?.startsWith('/') || !URL.canParse(next, THIS_APP)) return HOME_PAGE;
  const url = new URL(next, THIS_APP);
  return url.origin === THIS_APP ? `${url.pathname}${url.search}${url.hash}` : HOME_PAGE;
}
