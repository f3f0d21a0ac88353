/** What registering an endpoint needs to know of this deployment. */
export interface WebhookSettings {
  /** WEBHOOK_ALLOWED_HOSTS: hosts that may be on loopback, private or link-local addresses. */
  allowedHosts: readonly string[];
}
