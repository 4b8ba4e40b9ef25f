// `npm run bench [-- PART…] [--db postgres,pglite] [--quick] [--in-process] [--no-build] [--out FILE]
//   [--loop-rates 1,0.5] [--sustainable postgres=9045,pglite=3789]`
// Runs the parts in order (all by default), then prints one table with the machine it ran on.
// Parts: ingest, decode, overload, burst (bench/ingest, decode, overload, burst), loop (the guard
// in the loop and time to visible), reads, trajectory, retention.
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildIsCurrent, ensureBuild } from '../server/build';
import { benchOptions, formatReport, machineLine } from './shared/report';
import type { BenchOptions, BenchSection, DatabaseKind } from './shared/report';

export interface BenchPart {
  run(options: BenchOptions): Promise<BenchSection | BenchSection[]>;
}

export const PARTS = [
  'ingest',
  'decode',
  'overload',
  'burst',
  'loop',
  'reads',
  'trajectory',
  'retention',
] as const;
export type PartName = (typeof PARTS)[number];

const LOADERS: Record<PartName, () => Promise<BenchPart>> = {
  ingest: () => import('./ingest/index'),
  decode: () => import('./decode/index'),
  overload: () => import('./overload/index'),
  burst: () => import('./burst/index'),
  loop: () => import('./loop/index'),
  reads: () => import('./reads/index'),
  trajectory: () => import('./trajectory/index'),
  retention: () => import('./retention/index'),
};

/** Runs the parts one after another; a part that fails becomes a section saying so. */
export async function runParts(
  parts: readonly PartName[],
  options: BenchOptions,
): Promise<BenchSection[]> {
  const sections: BenchSection[] = [];
  for (const name of parts) {
    const started = performance.now();
    options.log(`${name}: starting`);
    try {
      const part = await LOADERS[name]();
      const result = await part.run(options);
      sections.push(...(Array.isArray(result) ? result : [result]));
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      options.log(`${name} failed: ${message}`);
      sections.push({
        title: name,
        rows: [{ metric: `${name} failed`, value: 'error', unit: '', pass: false }],
        notes: [message.split('\n')[0] ?? message],
      });
    } finally {
      options.log(`${name}: ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  }
  return sections;
}

export async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      quick: { type: 'boolean' },
      'in-process': { type: 'boolean' },
      'no-build': { type: 'boolean' },
      out: { type: 'string' },
      'loop-rates': { type: 'string' },
      sustainable: { type: 'string' },
      burst: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(
      `Usage: npm run bench -- [${PARTS.join('|')} …] [--db postgres,pglite] [--quick] [--in-process] [--no-build] [--out FILE] [--loop-rates 1,0.5] [--sustainable postgres=N,pglite=N] [--burst SPANS_PER_S,SECONDS,EXPORTERS]`,
    );
    return 0;
  }
  const unknown = positionals.filter((p) => !(PARTS as readonly string[]).includes(p));
  if (unknown.length > 0) throw new Error(`unknown part(s): ${unknown.join(', ')}`);
  const parts = positionals.length > 0 ? (positionals as PartName[]) : [...PARTS];
  const databases = (values.db?.split(',') ?? ['postgres', 'pglite']).map((d) => d.trim());
  if (databases.some((d) => d !== 'postgres' && d !== 'pglite'))
    throw new Error(`--db takes postgres and/or pglite, not ${values.db}`);
  const loopRates = (values['loop-rates']?.split(',') ?? ['1']).map(Number);
  if (loopRates.some((r) => !(r > 0 && r <= 10)))
    throw new Error(
      `--loop-rates takes shares of the sustainable rate (0 to 10], not ${values['loop-rates']}`,
    );
  const sustainable = parseSustainable(values.sustainable);
  const burst = parseBurst(values.burst);
  const options = benchOptions({
    loopRates,
    ...(burst ? { burst } : {}),
    shared: {
      sustainableSpansPerSecond: sustainable,
      bestLanes: {},
      sustainableFrom: Object.fromEntries(
        Object.keys(sustainable).map((kind) => [kind, `--sustainable ${values.sustainable}`]),
      ),
    },
    quick: values.quick ?? false,
    databases: databases as DatabaseKind[],
    server: values['in-process'] ? 'in-process' : 'built',
  });
  const root = fileURLToPath(new URL('..', import.meta.url));
  if (options.server === 'built' && !values['no-build']) ensureBuild(root, options.log);
  // Next bundles the routes, derivation included: an old build measures old code.
  else if (options.server === 'built' && !buildIsCurrent(root))
    options.log(
      'warning: --no-build with sources changed since the last build: the routes run the old code (npm run build first)',
    );

  const machine = machineLine();
  const loadBefore = loadavg()[0] ?? 0;
  const sections = await runParts(parts, options);
  // Anything else running on the machine shares its cores: say how busy it was.
  const load = `1-min load average ${loadBefore.toFixed(2)} at the start, ${(loadavg()[0] ?? 0).toFixed(2)} at the end`;
  const report = formatReport(sections, `${machine}; ${load}`);
  console.log(`\n${report}`);
  if (values.out) writeFileSync(values.out, report);
  return sections.some((s) => s.rows.some((r) => r.value === 'error')) ? 1 : 0;
}

/** `20000,20,4`: the burst part offers 20,000 spans/s for 20 s through 4 exporters. */
export function parseBurst(
  text: string | undefined,
): { spansPerSecond: number; seconds: number; exporters: number } | undefined {
  if (text === undefined) return undefined;
  const [spansPerSecond, seconds, exporters] = text.split(',').map(Number);
  if (
    !(spansPerSecond! > 0) ||
    !(seconds! > 0) ||
    !Number.isInteger(exporters) ||
    !(exporters! > 0 && exporters! <= 64)
  ) {
    throw new Error(`--burst takes SPANS_PER_S,SECONDS,EXPORTERS (20000,20,4), not ${text}`);
  }
  return { spansPerSecond: spansPerSecond!, seconds: seconds!, exporters: exporters! };
}

/**
 * `postgres=9045,pglite=3789`: the sustainable rates a part after ingest drives at, for running
 * it alone at an earlier full run's rates (the ingest part, when it runs, measures them anew).
 */
export function parseSustainable(text: string | undefined): Partial<Record<DatabaseKind, number>> {
  const rates: Partial<Record<DatabaseKind, number>> = {};
  for (const pair of text?.split(',') ?? []) {
    const [kind, value] = pair.split('=').map((part) => part.trim());
    const rate = Number(value);
    if ((kind !== 'postgres' && kind !== 'pglite') || !(rate > 0) || !Number.isFinite(rate))
      throw new Error(`--sustainable takes postgres=N,pglite=N in spans/s, not ${text}`);
    rates[kind] = rate;
  }
  return rates;
}
