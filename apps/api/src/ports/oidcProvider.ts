import type * as openid from 'openid-client';
import type { OidcSettings } from './oidcSettings';

/** The OpenID provider as discovered: its endpoints and keys, with this app's client settings. */
export interface OidcProvider {
  settings: OidcSettings;
  configuration: openid.Configuration;
}
