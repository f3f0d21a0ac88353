import type { Server } from 'node:http';

/**
 * Above the 60 s idle timeout that load balancers commonly keep (AWS ALB's default, many
 * nginx and Envoy setups): the API must not close an idle connection that the balancer may be
 * about to send a request on, or that request fails with a 502. Node's own default is 5 s.
 */
export const DEFAULT_KEEP_ALIVE_SECONDS = 65;

/** Keeps idle connections open for `seconds`, and waits a little longer for a request's headers. */
export function keepConnectionsAlive(server: Server, seconds: number) {
  server.keepAliveTimeout = seconds * 1000;
  // Node's advice: above the keep-alive wait, so that a request sent at its very end is read.
  server.headersTimeout = seconds * 1000 + 1000;
}
