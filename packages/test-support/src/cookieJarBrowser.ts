import { CookieJar } from 'tough-cookie';

export interface Visit {
  /** Where the browser ended up (or the redirect it was told to stop at). */
  url: URL;
  status: number;
  body: string;
}

export interface VisitOptions {
  /** Send a form (POST, urlencoded) to the first address. */
  form?: Record<string, string>;
  /** Changes the address of a redirect before it is followed (a tampering party in between). */
  rewrite?: (next: URL) => URL;
  /** Stops before following a redirect to an address for which this is true. */
  stopAt?: (next: URL) => boolean;
}

/**
 * What a browser does over HTTP, without the page: keeps cookies per site (tough-cookie, as
 * browsers do: path, expiry, HttpOnly all count) and follows redirects. For signing in through
 * a real OpenID provider from tests that need no page (the API's own tests).
 */
export class CookieJarBrowser {
  readonly jar = new CookieJar();

  async visit(start: string | URL, options: VisitOptions = {}): Promise<Visit> {
    let url = new URL(start);
    let form = options.form;
    for (let hop = 0; hop < 20; hop++) {
      const cookie = await this.jar.getCookieString(url.href);
      const response = await fetch(url, {
        method: form ? 'POST' : 'GET',
        redirect: 'manual',
        headers: {
          ...(cookie ? { cookie } : {}),
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(form ? { body: new URLSearchParams(form).toString() } : {}),
      });
      for (const header of response.headers.getSetCookie()) {
        await this.jar.setCookie(header, url.href);
      }
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        return { url, status: response.status, body: await response.text() };
      }
      await response.body?.cancel();
      let next = new URL(location, url);
      next = options.rewrite ? options.rewrite(next) : next;
      if (options.stopAt?.(next)) return { url: next, status: response.status, body: '' };
      url = next;
      form = undefined;
    }
    throw new Error(`more than 20 redirects from ${start}`);
  }

  /** The value of a cookie the browser would send to `url`. */
  async cookie(url: string, name: string): Promise<string | undefined> {
    const cookies = await this.jar.getCookies(url);
    return cookies.find((cookie) => cookie.key === name)?.value;
  }
}
