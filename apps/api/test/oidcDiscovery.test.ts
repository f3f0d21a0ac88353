import { parseRoleMap } from '@tablelock/identity';
import { freePort } from '@tablelock/test-support';
import { describe, expect, it } from 'vitest';
import { discoverOidcProvider, OidcDiscoveryFailed } from '../src/auth/oidc/oidcProvider';
import type { OidcSettings } from '../src/ports/oidcSettings';

const settings = (issuer: string): OidcSettings => ({
  issuer: new URL(issuer),
  clientId: 'tablelock',
  clientSecret: 'secret',
  redirectUrl: new URL('http://127.0.0.1:4000/auth/oidc/callback'),
  providerName: 'IdP',
  roleClaim: 'groups',
  roleMap: parseRoleMap('*=viewer'),
  usernameClaim: 'preferred_username',
  scopes: 'openid',
});

describe('discoverOidcProvider (at start)', () => {
  it('names the issuer and the reason when nothing answers there', async () => {
    const issuer = `http://127.0.0.1:${await freePort()}`;
    const failure = discoverOidcProvider(settings(issuer));
    await expect(failure).rejects.toBeInstanceOf(OidcDiscoveryFailed);
    await expect(failure).rejects.toThrow(
      new RegExp(
        `^Could not read the OpenID provider's configuration from ${issuer}/ \\(OIDC_ISSUER\\): .*ECONNREFUSED`,
      ),
    );
  });

  it('refuses a plain-http issuer that is not on the loopback address', async () => {
    await expect(discoverOidcProvider(settings('http://idp.example.test'))).rejects.toThrow(
      'The issuer must use https (http only on the loopback address).',
    );
  });
});
