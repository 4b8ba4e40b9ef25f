// Where the server's CPU goes under ingest load, from a V8 CPU profile (`--cpu-prof` of the
// built server, or an inspector session in this process). Frames in the built server's bundles
// are mapped back to their sources through the bundles' source maps, then every sample is put
// in one stage by the code on its stack: decode, facts, validate, store, derive, ….
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** In order of precedence: a sample goes to the first stage any frame of its stack belongs to. */
const STACK_STAGES: [string, RegExp][] = [
  ['derive (deriver, JS side)', /(^|\/)ingest\/(derive-queue|derive-runs|end-idle-runs)\.ts$/],
  ['decode (ingest/otlp)', /(^|\/)ingest\/otlp\/[^/]+\.ts$/],
  ['facts (span-facts)', /(^|\/)ingest\/span-facts\.ts$/],
  ['validate', /(^|\/)ingest\/validate\.ts$/],
  [
    'store (rows, SQL parameters)',
    /(^|\/)(ingest\/ingest-spans|db\/write\/[^/]+|db\/sql|db\/copy)\.ts$/,
  ],
  ['read body, gunzip', /(^|\/)ingest\/read-body\.ts$/],
  ['endpoint, auth, admission', /(^|\/)(ingest|db|lib|app|server)\/.+\.tsx?$/],
];

/** For samples with none of our code on the stack (continuations after an await): by the leaf. */
const LEAF_STAGES: [string, RegExp][] = [
  ['SQL engine (PGlite, in process)', /@electric-sql\/pglite|^wasm:/],
  ['driver + ORM (postgres.js, drizzle)', /node_modules\/(postgres|drizzle-orm)\//],
  ['read body, gunzip', /^node:zlib$/],
  [
    'Next.js, HTTP, streams',
    /node_modules\/next\/|^node:(_http|http|net|stream|internal\/(http|streams|webstreams|stream_base|url))/,
  ],
];

export const DECODE_STAGE = 'decode (ingest/otlp)';
export const IDLE = '(idle)';

export interface ProfileBreakdown {
  /** Sampled time in the window, ms. */
  totalMs: number;
  /** Sampled time not idle, ms. */
  busyMs: number;
  /** ms per stage (idle included under "(idle)"). */
  stages: Map<string, number>;
  /** Self time of frames in ingest/otlp/*, ms. */
  decodeSelfMs: number;
  /** What "other" holds: ms by leaf function and file, for reading the profile. */
  otherLeaves: Map<string, number>;
}

export function analyzeProfile(
  profile: CpuProfile,
  window?: { startUs: number; endUs: number },
): ProfileBreakdown {
  const sources = new SourceResolver();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const stageOf = new Map<number, string>();
  const selfDecode = new Map<number, boolean>();
  const leafName = new Map<number, string>();

  const classify = (leafId: number): string => {
    const cached = stageOf.get(leafId);
    if (cached !== undefined) return cached;
    const files: string[] = [];
    for (let id: number | undefined = leafId; id !== undefined; id = parent.get(id)) {
      const node = byId.get(id);
      if (node) files.push(sources.file(node.callFrame));
    }
    const leaf = byId.get(leafId)?.callFrame;
    let stage: string | undefined;
    for (const [name, pattern] of STACK_STAGES) {
      if (files.some((f) => pattern.test(f))) {
        stage = name;
        break;
      }
    }
    if (stage === undefined && leaf) {
      const special = /^\((idle|garbage collector|program)\)$/.exec(leaf.functionName);
      if (special) stage = special[1] === 'idle' ? IDLE : `(${special[1]})`;
      else {
        // Native leaves (a socket write, a buffer copy) go with the nearest frame that has a file.
        const nearest = files.find((f) => f !== '') ?? '';
        stage = LEAF_STAGES.find(([, p]) => p.test(nearest))?.[0] ?? 'other';
      }
    }
    stageOf.set(leafId, stage ?? 'other');
    leafName.set(leafId, `${leaf?.functionName || '(anonymous)'} ${shortPath(files[0] ?? '')}`);
    selfDecode.set(leafId, STACK_STAGES[1]?.[1].test(files[0] ?? '') ?? false);
    return stage ?? 'other';
  };

  const stages = new Map<string, number>();
  const otherLeaves = new Map<string, number>();
  let decodeSelfMs = 0;
  let totalMs = 0;
  let t = profile.startTime;
  const interval = median(profile.timeDeltas);
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (window && (t < window.startUs || t > window.endUs)) continue;
    const ms = (profile.timeDeltas[i + 1] ?? interval) / 1000;
    const id = profile.samples[i] as number;
    const stage = classify(id);
    stages.set(stage, (stages.get(stage) ?? 0) + ms);
    if (selfDecode.get(id)) decodeSelfMs += ms;
    if (stage === 'other') {
      const name = leafName.get(id) ?? '?';
      otherLeaves.set(name, (otherLeaves.get(name) ?? 0) + ms);
    }
    totalMs += ms;
  }
  const busyMs = totalMs - (stages.get(IDLE) ?? 0);
  return { totalMs, busyMs, stages, decodeSelfMs, otherLeaves };
}

function shortPath(file: string): string {
  const at = file.lastIndexOf('node_modules/');
  if (at >= 0) return file.slice(at + 'node_modules/'.length);
  return file.replace(/^.*?\/(?=(ingest|db|lib|app|server|trajectory|bench|e2e)\/)/, '');
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 1000;
}

/** The source file of a frame: the bundle's source map's original source where there is one. */
class SourceResolver {
  private readonly maps = new Map<string, SourceMap | null>();

  file(frame: CpuProfile['nodes'][number]['callFrame']): string {
    const url = frame.url;
    if (!url.startsWith('file://') || !url.endsWith('.js')) return url;
    const map = this.mapFor(url);
    const entry = map?.findEntry(frame.lineNumber, frame.columnNumber) as
      { originalSource?: string } | undefined;
    return entry?.originalSource ?? url;
  }

  private mapFor(url: string): SourceMap | null {
    let map = this.maps.get(url);
    if (map === undefined) {
      map = null;
      const file = `${fileURLToPath(url)}.map`;
      // Only the server's bundles: node_modules are named well enough by their own paths.
      if (url.includes('/.next/') && existsSync(file)) {
        try {
          map = new SourceMap(JSON.parse(readFileSync(file, 'utf8')));
        } catch {
          map = null;
        }
      }
      this.maps.set(url, map);
    }
    return map;
  }
}

/** Profiles this process (the in-process server) until the returned stop() is called. */
export async function profileThisProcess(): Promise<{ stop(): Promise<CpuProfile> }> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 1000 });
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      return profile as unknown as CpuProfile;
    },
  };
}
