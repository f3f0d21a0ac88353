import * as openid from 'openid-client';
import type { OidcProvider } from '../../ports/oidcProvider';
import type { OidcSettings } from '../../ports/oidcSettings';

/** The provider's discovery document could not be read or is not usable. */
export class OidcDiscoveryFailed extends Error {}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Reads the provider's discovery document (`<issuer>/.well-known/openid-configuration`), once,
 * at start: a wrong issuer URL or an unreachable provider stops the start with a clear reason
 * rather than failing the first person who signs in. The provider's signing keys are fetched
 * (and re-fetched when they rotate) by openid-client when it checks an ID token.
 *
 * Only HTTPS issuers, except on the loopback address (a provider on the same machine, as in the
 * tests): openid-client refuses plain HTTP unless told to allow it, and we allow it only there.
 */
export async function discoverOidcProvider(settings: OidcSettings): Promise<OidcProvider> {
  const insecureAllowed =
    settings.issuer.protocol === 'http:' && LOOPBACK_HOSTS.has(settings.issuer.hostname);
  try {
    const configuration = await openid.discovery(
      settings.issuer,
      settings.clientId,
      undefined,
      settings.clientSecret === null
        ? openid.None()
        : openid.ClientSecretBasic(settings.clientSecret),
      { timeout: 10, ...(insecureAllowed ? { execute: [openid.allowInsecureRequests] } : {}) },
    );
    // openid-client trusts an ID token from the token endpoint on the strength of TLS alone
    // (OpenID Connect Core 3.1.3.7 allows it); we check its signature too, so that a token
    // not signed by the provider's key is refused however it arrived.
    openid.enableNonRepudiationChecks(configuration);
    return { settings, configuration };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const reason = `${error instanceof Error ? error.message : String(error)}${cause ? ` (${cause})` : ''}`;
    const httpsNeeded = settings.issuer.protocol === 'http:' && !insecureAllowed;
    throw new OidcDiscoveryFailed(
      `Could not read the OpenID provider's configuration from ${settings.issuer.href} (OIDC_ISSUER): ${reason}. ${httpsNeeded ? 'The issuer must use https (http only on the loopback address).' : 'Check the issuer URL and that this server can reach it.'}`,
    );
  }
}

/** Where the provider ends its own session (RP-initiated logout), if it says it supports it. */
export function endSessionUrl(provider: OidcProvider, postLogoutRedirectUrl: URL): URL | null {
  if (!provider.configuration.serverMetadata().end_session_endpoint) return null;
  return openid.buildEndSessionUrl(provider.configuration, {
    post_logout_redirect_uri: postLogoutRedirectUrl.href,
  });
}
