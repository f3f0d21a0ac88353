import { randomBytes } from 'node:crypto';

/** A new signing secret in the Standard Webhooks form: `whsec_` and 32 random bytes, base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}
