import type { RoleMap } from '@tablelock/identity';

/** How tablelock signs people in through an OpenID provider (from the OIDC_* settings). */
export interface OidcSettings {
  issuer: URL;
  clientId: string;
  /** Null for a public client, which proves itself with PKCE alone. */
  clientSecret: string | null;
  /** Where the provider sends the browser back: this app's /auth/oidc/callback. */
  redirectUrl: URL;
  /** "Sign in with <providerName>". */
  providerName: string;
  /** The claim whose values (groups, roles) map to a role. */
  roleClaim: string;
  roleMap: RoleMap;
  /** The claim whose value becomes a new user's name. */
  usernameClaim: string;
  /** Space-separated scopes, `openid` among them. */
  scopes: string;
}
