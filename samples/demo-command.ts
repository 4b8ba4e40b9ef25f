// `loopscope demo` (npm run demo): where to send the sample runs, and with which key. Like any
// OTel program it honours OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT and _HEADERS; without them it
// sends to the local server and makes itself a key, which it revokes when done.
import { parseKeyPairsIntoRecord } from '@opentelemetry/core';
import type { PriceTable } from '../trajectory/pricing';
import { loadSampleRuns } from './demo';
import type { DemoSummary, DemoTarget } from './demo';

export interface ResolvedTarget extends DemoTarget {
  /** The target came from the environment rather than the local server's settings. */
  fromEnvironment: boolean;
  hasKey: boolean;
}

export function resolveDemoTarget(
  env: Record<string, string | undefined>,
  local: { host: string; port: number },
): ResolvedTarget {
  const tracesEndpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  let origin: string;
  let tracesUrl: string;
  if (tracesEndpoint) {
    tracesUrl = tracesEndpoint;
    origin = tracesEndpoint.replace(/\/v1\/traces\/?$/, '');
  } else if (endpoint) {
    origin = endpoint.replace(/\/+$/, '');
    tracesUrl = `${origin}/v1/traces`;
  } else {
    origin = localOrigin(local);
    tracesUrl = `${origin}/v1/traces`;
  }
  const headers = {
    ...parseKeyPairsIntoRecord(env.OTEL_EXPORTER_OTLP_HEADERS),
    ...parseKeyPairsIntoRecord(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
  };
  const hasKey = Object.keys(headers).some((name) => /^(authorization|x-api-key)$/i.test(name));
  return {
    origin,
    tracesUrl,
    headers,
    fromEnvironment: Boolean(tracesEndpoint || endpoint),
    hasKey,
  };
}

/** The server's own address, reachable from this machine. */
export function localOrigin({ host, port }: { host: string; port: number }): string {
  const reachable = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

export interface KeyIssuer {
  create(project: string): Promise<{ id: string; key: string }>;
  revoke(id: string): Promise<void>;
}

export async function runDemoCommand(options: {
  env: Record<string, string | undefined>;
  local: { host: string; port: number };
  project: string;
  keys: KeyIssuer;
  prices: PriceTable;
  log: (message: string) => void;
}): Promise<DemoSummary> {
  const target = resolveDemoTarget(options.env, options.local);
  await expectLoopscope(target.origin);
  let issued: { id: string; key: string } | null = null;
  if (!target.hasKey) {
    if (target.fromEnvironment) {
      throw new Error(
        `No key for ${target.origin}: set OTEL_EXPORTER_OTLP_HEADERS="Authorization=Bearer <key>"`,
      );
    }
    issued = await options.keys.create(options.project);
    target.headers = { ...target.headers, Authorization: `Bearer ${issued.key}` };
  }
  options.log(`Sending the sample runs to ${target.tracesUrl}`);
  try {
    const summary = await loadSampleRuns(target, { prices: options.prices, log: options.log });
    options.log(
      summary.alreadyLoaded
        ? `The ${summary.runs} sample runs were loaded already; sent again, nothing changed.`
        : `Loaded ${summary.runs} sample runs (${summary.spans} spans) from ${summary.from.slice(0, 10)} to ${summary.to.slice(0, 10)}: ${target.origin}`,
    );
    options.log(`Open ${dashboardUrl(target.origin, options.project, summary)} to see them.`);
    return summary;
  } finally {
    if (issued) await options.keys.revoke(issued.id);
  }
}

/** The dashboard on the days the sample runs cover, in the project they went to. */
export function dashboardUrl(
  origin: string,
  project: string,
  covered: { from: string; to: string },
): string {
  const query = new URLSearchParams();
  if (project !== 'default') query.set('project', project);
  query.set('from', covered.from.slice(0, 10));
  query.set('to', covered.to.slice(0, 10));
  return `${origin}/?${query.toString()}`;
}

async function expectLoopscope(origin: string): Promise<void> {
  try {
    const response = await fetch(`${origin}/api/health`, { cache: 'no-store' });
    if (response.ok) return;
    throw new Error(`it answered ${response.status}`);
  } catch (error) {
    throw new Error(
      `No Loopscope ready at ${origin} (${(error as Error).message}). Start it with \`npm start\`, or set OTEL_EXPORTER_OTLP_ENDPOINT.`,
    );
  }
}
