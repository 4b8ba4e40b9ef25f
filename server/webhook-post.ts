// One webhook POST, its destination judged where it matters: at the connection. The URL's host is
// resolved once, every address it gives is judged (lib/alerts/webhook-address.ts), and the
// connection goes to the first that may be reached, so a name that resolves inward, or that
// changes what it resolves to between a check and the connect (DNS rebinding), reaches nothing.
// No redirect is followed.
import { lookup as dnsLookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { request as httpRequest } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { addressProblem, urlPort, urlProblem } from '../lib/alerts/webhook-address';
import type { OwnListeners } from '../lib/alerts/webhook-address';

export interface WebhookPolicy {
  /** LOOPSCOPE_WEBHOOK_ALLOW; null: any public host. */
  allow: readonly string[] | null;
  own: () => OwnListeners;
}

/** Why the destination may not be reached at all; the request is never tried again. */
export class WebhookRefused extends Error {}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

export async function postWebhook(
  url: URL,
  options: {
    headers: Record<string, string>;
    body: string;
    timeoutMs: number;
    policy: WebhookPolicy;
  },
): Promise<{ status: number }> {
  const { policy } = options;
  const own = policy.own();
  const problem = urlProblem(url, policy.allow, own);
  if (problem) throw new WebhookRefused(problem);
  const target = { hostname: url.hostname, port: urlPort(url), listed: policy.allow !== null };
  let refused: string | null = null;
  // Node calls this for a host name (an IP literal was judged by urlProblem).
  const lookup = (hostname: string, lookupOptions: LookupOptions, callback: LookupCallback) => {
    dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const problems = addresses.map((entry) => addressProblem(target, entry.address, own));
      const usable = addresses.filter((_, k) => problems[k] === null);
      if (usable.length === 0) {
        refused = problems.find((problem) => problem !== null) ?? `${hostname} has no address`;
        return callback(Object.assign(new Error(refused), { code: 'EREFUSED' }), []);
      }
      if (lookupOptions.all) return callback(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
        lookup: lookup as never,
        // One connection a request: a kept-alive socket would skip the next request's check.
        agent: false,
      },
      (response: IncomingMessage) => {
        response.resume();
        response.once('end', () => resolve({ status: response.statusCode ?? 0 }));
        response.once('error', reject);
      },
    );
    const deadline = setTimeout(
      () => request.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })),
      options.timeoutMs,
    );
    request.once('close', () => clearTimeout(deadline));
    request.once('error', (error) =>
      reject(refused !== null ? new WebhookRefused(refused) : error),
    );
    request.end(options.body);
  });
}
