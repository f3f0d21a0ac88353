import { lookup } from 'node:dns/promises';
import { DomainError } from '@tablelock/errors';
import ipaddr from 'ipaddr.js';

/** Where a delivery may connect: the checked address the URL's host name resolved to. */
export interface WebhookTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** The URL an admin gave, if it can be an endpoint at all; else BAD_USER_INPUT. */
export function parseWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new DomainError('BAD_USER_INPUT', `${text} is not a URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new DomainError('BAD_USER_INPUT', 'A webhook URL starts with https:// or http://.');
  }
  if (url.username || url.password) {
    throw new DomainError('BAD_USER_INPUT', 'A webhook URL has no user name or password in it.');
  }
  return url;
}

// Only the public internet; ipaddr.js names every other range (loopback, private, linkLocal,
// uniqueLocal, carrierGradeNat, unspecified, multicast, reserved, rfc6052, 6to4, …).
const PUBLIC_RANGE = 'unicast';
// ipaddr.js calls every IPv6 address of no special range `unicast`, IPv4-compatible ones
// (::/96, e.g. ::127.0.0.1, which some stacks still route to the IPv4 address inside) and the
// unassigned space included: only global unicast (2000::/3) is the public internet.
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** The range `address` is in: `unicast` only for the public internet. */
function rangeOf(address: string): string {
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range !== PUBLIC_RANGE || !(parsed instanceof ipaddr.IPv6)) return range;
  if (parsed.match(GLOBAL_UNICAST)) return range;
  return parsed.match(IPV4_COMPATIBLE) ? 'ipv4Compatible' : 'notGlobalUnicast';
}

/**
 * Resolves `url`'s host and refuses it (SSRF) when any of its addresses is not public, unless
 * the host is one of `allowedHosts` (WEBHOOK_ALLOWED_HOSTS). The delivery then connects to the
 * address checked here, so that a second lookup cannot lead it elsewhere.
 */
export async function resolveWebhookTarget(
  url: URL,
  allowedHosts: readonly string[],
): Promise<WebhookTarget> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    throw new DomainError('BAD_USER_INPUT', `The host ${host} of the webhook URL is not known.`);
  }
  const allowed = allowedHosts.includes(host.toLowerCase());
  const refused = addresses.find(({ address }) => rangeOf(address) !== PUBLIC_RANGE);
  if (refused && !allowed) {
    throw new DomainError(
      'BAD_USER_INPUT',
      `${host} is a ${rangeOf(refused.address)} address: webhooks go to public ` +
        'addresses only, or to hosts listed in WEBHOOK_ALLOWED_HOSTS.',
    );
  }
  const [first] = addresses;
  if (!first) throw new DomainError('BAD_USER_INPUT', `The host ${host} has no address.`);
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
