import type { TestAccount } from '@tablelock/test-support/oidcProvider';

/** What the login page's button names the test OpenID provider. */
export const SSO_PROVIDER_NAME = 'Example SSO';

/** People of the test OpenID provider; each signs in there with its subject and any password. */
export const SSO_ACCOUNTS: TestAccount[] = [
  {
    subject: 'sso-erika',
    preferredUsername: 'erika',
    email: 'erika@example.com',
    groups: ['tablelock-editors', 'staff'],
  },
];
