// Where a webhook may connect. A key holder chooses the URL and the server makes the request, so
// an unchecked URL is a door inward: to this server's own listeners (an internal route acting in
// another project), to cloud metadata, to a database on the private network. By default a webhook
// reaches public addresses only; LOOPSCOPE_WEBHOOK_ALLOW opens the hosts an operator names, inward
// ones included (a local receiver for development), and nothing opens this server's own ports.
// The address is judged as the connection is made (server/webhook-post.ts), so a name that
// resolves inward is caught whatever its spelling.
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { hostAllowed } from './webhook-allow';

const INWARD_V4 = [
  ['0.0.0.0', 8], // "this network"; 0.0.0.0 itself reaches this machine
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local: cloud metadata services
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const;

// IPv4-mapped addresses are judged as the IPv4 address they map (plainAddress); BlockList checks
// an IPv4 address against IPv6 rules in that form, so no rule here may cover ::ffff:0:0/96.
const INWARD_V6 = [
  ['::', 96], // unspecified, loopback, and the old IPv4-compatible forms
  ['64:ff9b::', 96], // NAT64: an IPv4 address behind a prefix
  ['2002::', 16], // 6to4: likewise
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const;

const inward = new BlockList();
for (const [network, prefix] of INWARD_V4) inward.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of INWARD_V6) inward.addSubnet(network, prefix, 'ipv6');

/** An IP address as the connection will use it: brackets gone, IPv4-mapped IPv6 as IPv4. */
export function plainAddress(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped) return mapped[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(bare);
  if (!hex) return bare;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Loopback, private, link-local, multicast or reserved: an address that reaches inward. */
export function isInwardAddress(address: string): boolean {
  const plain = plainAddress(address);
  const family = isIP(plain);
  if (family === 0) return false;
  return inward.check(plain, family === 4 ? 'ipv4' : 'ipv6');
}

/** This server's listeners: the ports it serves on, and where a URL names it. */
export interface OwnListeners {
  ports: readonly number[];
  /** `host:port` of LOOPSCOPE_PUBLIC_URL (a proxy in front of this server), lower case. */
  publicHost: string | null;
}

/** Addresses of this machine: a connection to any of them at our port reaches our listener. */
function isThisMachine(address: string): boolean {
  const plain = plainAddress(address);
  if (plain.startsWith('127.') || plain === '::1') return true;
  if (plain === '0.0.0.0' || plain === '::') return true;
  for (const addresses of Object.values(networkInterfaces())) {
    for (const entry of addresses ?? []) if (plainAddress(entry.address) === plain) return true;
  }
  return false;
}

export interface WebhookTarget {
  /** The URL's host name, as `new URL` gives it. */
  hostname: string;
  /** The port the connection goes to (the URL's, or 80 / 443). */
  port: number;
  /** Whether LOOPSCOPE_WEBHOOK_ALLOW names this host (then inward addresses are allowed). */
  listed: boolean;
}

/** Why a webhook may not connect to `address` (an IP), or null. */
export function addressProblem(
  target: WebhookTarget,
  address: string,
  own: OwnListeners,
): string | null {
  if (own.ports.includes(target.port) && isThisMachine(address)) {
    return `${target.hostname} reaches this Loopscope server itself (${plainAddress(address)} port ${target.port}): a webhook never posts to Loopscope`;
  }
  if (!target.listed && isInwardAddress(address)) {
    return `${target.hostname} is an inward address (${plainAddress(address)}: loopback, private, link-local or reserved); add the host to LOOPSCOPE_WEBHOOK_ALLOW to post there`;
  }
  return null;
}

/** Why a URL names this server through its public address, or null. */
function publicUrlProblem(url: URL, own: OwnListeners): string | null {
  if (own.publicHost === null) return null;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const [publicName, publicPort = url.protocol === 'https:' ? '443' : '80'] = splitHost(
    own.publicHost,
  );
  return url.hostname.toLowerCase() === publicName && port === publicPort
    ? `${url.hostname} is this Loopscope server's public address: a webhook never posts to Loopscope`
    : null;
}

function splitHost(host: string): [string, string | undefined] {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
  return [match?.[1] ?? host, match?.[2]];
}

/** The port a URL connects to. */
export function urlPort(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
}

/**
 * Why a webhook URL is refused as it is written, or null: a host not on the operator's allow list
 * (LOOPSCOPE_WEBHOOK_ALLOW), an inward IP address (or `localhost`) not on it, or this server
 * itself. Checked when a rule is made and before every delivery; a name is judged again by what
 * it resolves to as the connection is made (server/webhook-post.ts).
 */
export function urlProblem(
  url: URL,
  allow: readonly string[] | null,
  own: OwnListeners,
): string | null {
  const { hostname } = url;
  if (!hostAllowed(hostname, allow)) return `host ${hostname} is not in LOOPSCOPE_WEBHOOK_ALLOW`;
  const target: WebhookTarget = { hostname, port: urlPort(url), listed: allow !== null };
  const literal = hostname.replace(/^\[|\]$/g, '');
  const named = hostname.toLowerCase() === 'localhost' ? '127.0.0.1' : literal;
  return (
    publicUrlProblem(url, own) ?? (isIP(named) !== 0 ? addressProblem(target, named, own) : null)
  );
}

/** `urlProblem` of a rule's `webhook.url`, as the API answers it. */
export function webhookHostProblem(
  text: string,
  allow: readonly string[] | null,
  own: OwnListeners,
): string | null {
  const problem = urlProblem(new URL(text), allow, own);
  return problem === null ? null : `webhook.url: ${problem}`;
}
