// What every bench part hands back, and the one table `npm run bench` prints at the end. Values
// are whatever the machine measured; targets are ratios (docs/architecture.md "Targets"), so a reader can
// check a row on any machine.
import { cpus, totalmem } from 'node:os';

export interface BenchRow {
  metric: string;
  value: number | string;
  unit: string;
  /** As printed, e.g. "≥ 0.35". */
  target?: string;
  pass?: boolean;
}

export interface BenchSection {
  title: string;
  rows: BenchRow[];
  notes: string[];
}

export type DatabaseKind = 'postgres' | 'pglite';

/** Numbers one part measures and a later part reuses (overload drives at 3× ingest's rate). */
export interface SharedResults {
  sustainableSpansPerSecond: Partial<Record<DatabaseKind, number>>;
  /** Exporters in flight at the best throughput. */
  bestLanes: Partial<Record<DatabaseKind, number>>;
  /** Where a database's sustainable rate came from, when not from this run's ingest part. */
  sustainableFrom?: Partial<Record<DatabaseKind, string>>;
}

/** Where the sustainable rate a part drives `kind` at came from, for its notes. */
export function sustainableSource(shared: SharedResults, kind: DatabaseKind): string {
  return shared.sustainableFrom?.[kind] ?? 'the ingest part';
}

export interface BenchOptions {
  /** Tiny sizes and short windows: the smoke test's setting. */
  quick: boolean;
  databases: DatabaseKind[];
  /** The Postgres server; each part creates (and drops) databases of its own on it. */
  postgresUrl: string;
  /**
   * 'built': the built server as its own process (`npm run bench`); 'in-process': the route
   * handlers behind a plain node server in this process (the smoke test; no build needed).
   */
  server: 'built' | 'in-process';
  shared: SharedResults;
  /** Shares of the sustainable rate the loop part's background ingest runs at, one after another. */
  loopRates: number[];
  /** The burst part at a fixed offer instead of 3 × the sustainable rate for 60 s by 16 exporters. */
  burst?: { spansPerSecond: number; seconds: number; exporters: number };
  log(message: string): void;
}

export function benchOptions(overrides: Partial<BenchOptions> = {}): BenchOptions {
  return {
    quick: false,
    databases: ['postgres', 'pglite'],
    postgresUrl:
      process.env.BENCH_DATABASE_URL ??
      process.env.TEST_DATABASE_URL ??
      'postgres://postgres@127.0.0.1:5432/postgres',
    server: 'built',
    shared: { sustainableSpansPerSecond: {}, bestLanes: {} },
    loopRates: [1],
    log: (message) => console.log(`[bench] ${message}`),
    ...overrides,
  };
}

/** A row that compares a measured ratio with its target. */
export function targetRow(
  metric: string,
  value: number,
  target: { atLeast: number } | { atMost: number },
  unit = '×',
): BenchRow {
  const pass = Number.isFinite(value)
    ? 'atLeast' in target
      ? value >= target.atLeast
      : value <= target.atMost
    : false;
  const bound = 'atLeast' in target ? `≥ ${target.atLeast}` : `≤ ${target.atMost}`;
  return { metric, value: round(value), unit, target: bound, pass };
}

export function row(metric: string, value: number | string, unit = ''): BenchRow {
  return { metric, value: typeof value === 'number' ? round(value) : value, unit };
}

/** Three significant digits, whole numbers kept whole. */
export function round(value: number): number {
  if (!Number.isFinite(value) || Math.abs(value) >= 100) return Math.round(value);
  return Number(value.toPrecision(3));
}

export function machineLine(now = new Date()): string {
  const cpu = cpus();
  const model = cpu[0]?.model.trim() ?? 'unknown CPU';
  const memory = `${(totalmem() / 2 ** 30).toFixed(1)} GiB`;
  return `${model}, ${cpu.length} cores, ${memory}, node ${process.version}, ${process.platform}, ${now.toISOString()}`;
}

/** The table of every section, one block per section, with its notes under it. */
export function formatReport(sections: readonly BenchSection[], machine = machineLine()): string {
  const lines = [`Machine: ${machine}`, ''];
  const header = ['metric', 'value', 'unit', 'target', 'pass'];
  const all = sections.flatMap((s) => s.rows.map(cells));
  const widths = header.map((h, i) => Math.max(h.length, ...all.map((c) => (c[i] ?? '').length)));
  const line = (c: string[]) =>
    `| ${c.map((v, i) => (i === 1 ? v.padStart(widths[i] ?? 0) : v.padEnd(widths[i] ?? 0))).join(' | ')} |`;
  for (const section of sections) {
    lines.push(`## ${section.title}`, '', line(header));
    lines.push(
      `|${widths.map((w, i) => (i === 1 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`,
    );
    for (const r of section.rows) lines.push(line(cells(r)));
    if (section.notes.length > 0) lines.push('', ...section.notes.map((n) => `- ${n}`));
    lines.push('');
  }
  return lines.join('\n');
}

function cells(r: BenchRow): string[] {
  const value = typeof r.value === 'number' ? r.value.toLocaleString('en-US') : r.value;
  const pass = r.pass === undefined ? '' : r.pass ? 'yes' : 'NO';
  return [r.metric, value, r.unit, r.target ?? '', pass];
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}
