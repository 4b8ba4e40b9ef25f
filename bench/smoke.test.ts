// The benchmark in miniature, so it cannot rot: every part of bench/ingest, decode, overload, burst
// runs on tiny sizes against the route handlers in this process (no build), the load still from
// a separate process through the real exporter. It checks that the report has its shape and the
// measurements are sane, never how fast anything is (that is `npm run bench`'s job).
import { describe, expect, it } from 'vitest';
import { analyzeProfile } from './decode/profile';
import type { CpuProfile } from './decode/profile';
import { parseBurst, parseSustainable, runParts } from './run';
import { benchOptions, formatReport, targetRow } from './shared/report';
import type { BenchSection } from './shared/report';

const quiet = () => {};

function numeric(section: BenchSection, metric: RegExp): number {
  const found = section.rows.find((r) => metric.test(r.metric));
  if (!found) throw new Error(`no row ${metric} in ${section.title}`);
  return Number(found.value);
}

function expectShape(section: BenchSection): void {
  expect(section.title).not.toBe('');
  expect(section.rows.length).toBeGreaterThan(0);
  for (const r of section.rows) {
    expect(r.metric).not.toMatch(/failed$/);
    expect(r.value).not.toBe('error');
    if (r.target !== undefined) expect(typeof r.pass).toBe('boolean');
  }
}

describe('bench smoke', () => {
  it('ingest: end to end from another process, COPY and the write stage, on both databases', async () => {
    const options = benchOptions({ quick: true, server: 'in-process', log: quiet });
    const [section] = await runParts(['ingest'], options);
    expectShape(section!);
    for (const kind of ['postgres', 'pglite'] as const) {
      expect(numeric(section!, new RegExp(`^${kind}: sustained ingest`))).toBeGreaterThan(0);
      expect(numeric(section!, new RegExp(`^${kind}: COPY`))).toBeGreaterThan(0);
      expect(numeric(section!, new RegExp(`^${kind}: write stage, 1 writer`))).toBeGreaterThan(0);
      expect(numeric(section!, new RegExp(`^${kind}: ingest ÷ COPY`))).toBeGreaterThan(0);
      const stored = section!.rows.find(
        (r) => r.metric === `${kind}: acknowledged spans all stored`,
      );
      expect(stored?.pass).toBe(true);
      expect(options.shared.sustainableSpansPerSecond[kind]).toBeGreaterThan(0);
    }
    expect(section!.rows.some((r) => r.metric.startsWith('PGlite ÷ Postgres'))).toBe(true);
  }, 180_000);

  it('decode: the decoder race and a profile of the server under load', async () => {
    const options = benchOptions({
      quick: true,
      server: 'in-process',
      databases: ['postgres'],
      log: quiet,
    });
    const [section] = await runParts(['decode'], options);
    expectShape(section!);
    expect(numeric(section!, /hand-written protobuf/)).toBeGreaterThan(0);
    expect(numeric(section!, /protobufjs decode \+ toObject/)).toBeGreaterThan(0);
    const share = numeric(
      section!,
      /^postgres: decode share of server CPU \(decode on the stack\)/,
    );
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThan(100);
  }, 120_000);

  it('overload: steady then three times the rate, every acknowledged span stored', async () => {
    const options = benchOptions({
      quick: true,
      server: 'in-process',
      databases: ['pglite'],
      log: quiet,
    });
    options.shared.sustainableSpansPerSecond.pglite = 1500;
    const [section] = await runParts(['overload'], options);
    expectShape(section!);
    expect(numeric(section!, /^pglite: offered ÷ sustainable/)).toBeGreaterThan(0);
    expect(numeric(section!, /^pglite: peak RSS ÷ steady RSS/)).toBeGreaterThan(0);
    expect(section!.rows.find((r) => r.metric === 'pglite: acknowledged spans stored')?.pass).toBe(
      true,
    );
  }, 120_000);

  it('loop: the guard answers each step under background ingest, and each step becomes visible', async () => {
    const options = benchOptions({
      quick: true,
      server: 'in-process',
      databases: ['postgres'],
      loopRates: [1, 0.5],
      log: quiet,
    });
    options.shared.sustainableSpansPerSecond.postgres = 1000;
    const [section] = await runParts(['loop'], options);
    expectShape(section!);
    // Each share of the rate reports its own rows.
    expect(numeric(section!, /^postgres at 0\.5 × the rate: time to visible: p99/)).toBeGreaterThan(
      0,
    );
    const named = section!.rows.find((r) => /guard answers counting the step/.test(r.metric));
    expect(named?.pass).toBe(true);
    expect(numeric(section!, /10 steps \(p50\)$/)).toBeGreaterThan(0);
    expect(numeric(section!, /time to visible: p99/)).toBeGreaterThan(0);
  }, 120_000);

  it('burst: 3 times the rate taken in by the spool, nothing lost, every span stored after it', async () => {
    const options = benchOptions({
      quick: true,
      server: 'in-process',
      databases: ['postgres'],
      log: quiet,
    });
    options.shared.sustainableSpansPerSecond.postgres = 1500;
    const [section] = await runParts(['burst'], options);
    expectShape(section!);
    expect(numeric(section!, /^postgres: burst, offered ÷ sustainable/)).toBeGreaterThan(0);
    const lost = section!.rows.find((r) => /^postgres: burst, spans lost/.test(r.metric));
    expect(lost?.value).toBe('0 / 0');
    expect(
      section!.rows.find((r) => r.metric === 'postgres: burst, acknowledged spans stored')?.pass,
    ).toBe(true);
    expect(
      numeric(section!, /^postgres: burst, all spans stored after the burst/),
    ).toBeGreaterThanOrEqual(0);
  }, 120_000);

  it('retention: the oldest week expired by the sweep, reads timed around it', async () => {
    const options = benchOptions({ quick: true, databases: ['postgres'], log: quiet });
    const [section] = await runParts(['retention'], options);
    expectShape(section!);
    const expired = section!.rows.find((r) => /^postgres: runs \/ steps expired/.test(r.metric));
    const [runs, steps] = String(expired?.value).split(' / ').map(Number);
    expect(runs).toBeGreaterThan(0);
    expect(steps).toBeGreaterThan(runs!);
    // The oldest week ends before the cutoff: its steps go with its partition, the rest by key.
    const split = section!.rows.find((r) => /dropped with their weekly partition/.test(r.metric));
    const [dropped, byKey] = String(split?.value).split(' (')[0]!.split(' / ').map(Number);
    expect(dropped).toBeGreaterThan(0);
    expect(dropped! + byKey!).toBe(steps);
    expect(numeric(section!, /^postgres: time to expire/)).toBeGreaterThan(0);
  });

  it('the table prints every section with its machine line', () => {
    const table = formatReport(
      [{ title: 'T', rows: [targetRow('ratio', 0.5, { atLeast: 0.35 })], notes: ['n'] }],
      'test machine',
    );
    expect(table).toContain('Machine: test machine');
    expect(table).toMatch(/\| ratio\s+\|\s+0\.5 \| × +\| ≥ 0\.35 \| yes/);
  });

  it('the profile analysis puts each sample in the stage on its stack', () => {
    const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
      id,
      callFrame: { functionName, url, lineNumber: 0, columnNumber: 0 },
      children,
    });
    const profile: CpuProfile = {
      nodes: [
        frame(1, '(root)', '', [2, 5, 6]),
        frame(2, 'ingestSpans', 'file:///x/ingest/ingest-spans.ts', [3, 4]),
        frame(3, 'extractSpanFacts', 'file:///x/ingest/span-facts.ts'),
        frame(4, 'stringify', ''),
        frame(5, 'readVarint', 'file:///x/ingest/otlp/proto-reader.ts'),
        frame(6, '(idle)', ''),
      ],
      startTime: 0,
      endTime: 6000,
      samples: [3, 4, 5, 5, 6, 6],
      timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000],
    };
    const b = analyzeProfile(profile);
    expect(b.totalMs).toBe(6);
    expect(b.busyMs).toBe(4);
    expect(b.stages.get('facts (span-facts)')).toBe(1);
    expect(b.stages.get('store (rows, SQL parameters)')).toBe(1);
    expect(b.stages.get('decode (ingest/otlp)')).toBe(2);
    expect(b.decodeSelfMs).toBe(2);
    // A window keeps only the samples inside it.
    expect(analyzeProfile(profile, { startUs: 2500, endUs: 4500 }).totalMs).toBe(2);
  });

  it('--sustainable reads each database’s rate, and refuses anything else', () => {
    expect(parseSustainable('postgres=9045, pglite=3789.5')).toEqual({
      postgres: 9045,
      pglite: 3789.5,
    });
    expect(parseSustainable(undefined)).toEqual({});
    for (const bad of ['postgres', 'mysql=10', 'pglite=0', 'postgres=fast'])
      expect(() => parseSustainable(bad)).toThrow(/--sustainable takes postgres=N,pglite=N/);
  });

  it('--burst reads the offer, its length and its exporters, and refuses anything else', () => {
    expect(parseBurst('20000,20,4')).toEqual({ spansPerSecond: 20000, seconds: 20, exporters: 4 });
    expect(parseBurst(undefined)).toBeUndefined();
    for (const bad of ['20000', '20000,20', '0,20,4', '20000,20,1.5', '20000,20,100', 'a,b,c'])
      expect(() => parseBurst(bad)).toThrow(/--burst takes SPANS_PER_S,SECONDS,EXPORTERS/);
  });
});
