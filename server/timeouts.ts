import type { Server } from "node:http";

/**
 * How long the web server waits on a client (decision 030; README "Timeouts"). Node's own defaults
 * would cut a request body after 5 minutes (a recording sent from a slow phone) and an idle
 * keep-alive connection after 5 seconds (before a proxy in front gives it up: a 502).
 */
export const SERVER_TIMEOUTS = {
  /** The request line and headers (a client sending them a byte at a time holds a connection). */
  headersTimeout: 66_000,
  /**
   * The whole request, headers and body; never the response (an export streams for as long as it
   * takes). The longest body we take is a 25 MB recording from the no-JavaScript form, in one POST:
   * an hour is that at 64 kbit/s. tus sends recordings in 256 KB requests, each well within it.
   */
  requestTimeout: 60 * 60_000,
  /**
   * An idle connection between requests: longer than the 60 s a proxy (nginx, cloud balancers) keeps
   * one, so the proxy closes it first and never sends a request on a connection closing under it.
   */
  keepAliveTimeout: 65_000,
  /** A connection with nothing sent or received, mid-request or mid-response (as nginx's 300 s). */
  timeout: 5 * 60_000,
};

export function applyServerTimeouts(server: Server, timeouts = SERVER_TIMEOUTS) {
  server.headersTimeout = timeouts.headersTimeout;
  server.requestTimeout = timeouts.requestTimeout;
  server.keepAliveTimeout = timeouts.keepAliveTimeout;
  server.setTimeout(timeouts.timeout);
}
