// Part 4 of the benchmark: the big trajectory. A 10,000-step run and a 100-step run go through
// /v1/traces with the real OTel exporter into the built server; headless Chromium opens each
// several times. Targets (docs/architecture.md): the big one interactive within 3 × the small one; the step
// list mounts at most 2 × the rows it shows.
//   npx tsx bench/trajectory/index.ts [--db=pglite,postgres] [--iterations=7]
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { chromium, devices } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { longTrajectory } from '../../e2e/support/dashboard-scenarios';
import { emitRun } from '../../e2e/support/scenarios';
import { ensureBuild } from '../../server/build';
import { createBenchDatabase } from '../shared/databases';
import {
  benchOptions,
  formatReport,
  machineLine,
  percentile,
  row,
  targetRow,
} from '../shared/report';
import type { BenchOptions, BenchRow, BenchSection, DatabaseKind } from '../shared/report';
import { startBuiltServer } from '../shared/server';
import type { BenchServer } from '../shared/server';
import { measureDiff } from './diff';
import { mountedRows, openAndTime, scrollFrames } from './page-probe';
import { createBenchSender } from './sender';
import type { MountedRows, OpenTiming } from './page-probe';

export interface TrajectorySettings {
  smallSteps: number;
  largeSteps: number;
  /** Timed opens of each run (after one untimed warm-up open each). */
  iterations: number;
  maxRatio: number;
  maxMountedRatio: number;
}

export type TrajectoryBenchOptions = BenchOptions & { trajectory?: Partial<TrajectorySettings> };

// As playwright.config.ts launches it.
const CHROMIUM = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export function trajectorySettings(options: TrajectoryBenchOptions): TrajectorySettings {
  return {
    smallSteps: 100,
    largeSteps: options.quick ? 1_000 : 10_000,
    iterations: options.quick ? 2 : 7,
    maxRatio: 3,
    maxMountedRatio: 2,
    ...options.trajectory,
  };
}

export async function run(options: TrajectoryBenchOptions): Promise<BenchSection> {
  const settings = trajectorySettings(options);
  const title = `Big trajectory: ${settings.largeSteps.toLocaleString('en-US')} vs ${settings.smallSteps} steps`;
  if (options.server !== 'built') {
    return {
      title,
      rows: [],
      notes: ['Skipped: the trajectory page needs the built server (run without --in-process).'],
    };
  }
  const rows: BenchRow[] = [];
  const notes = [
    `Interactive: navigation start → the step list answers a keypress. The page is opened with Chromium (headless, ${CHROMIUM.args.join(' ')}, Desktop Chrome viewport), the step list focused and \`j\` pressed every few ms until a row is selected; the time is performance.now() in the page when the selected row appeared. It includes the server's render (run, steps, lanes), the transfer, and hydration. One untimed warm-up open of each run, then ${settings.iterations} timed opens of each, alternating; ratios are of p50s.`,
    'Mounted rows: step rows in the list\u2019s DOM against ceil(viewport height ÷ row height), at the top, the middle and the end of the big run; the worst is reported.',
  ];
  const browser = await chromium.launch(CHROMIUM);
  try {
    for (const kind of options.databases) {
      rows.push(...(await measure(kind, browser, settings, options, notes)));
    }
  } finally {
    await browser.close();
  }
  return { title, rows, notes };
}

async function measure(
  kind: DatabaseKind,
  browser: Browser,
  settings: TrajectorySettings,
  options: TrajectoryBenchOptions,
  notes: string[],
): Promise<BenchRow[]> {
  const database = await createBenchDatabase(kind, options.postgresUrl);
  let server: BenchServer | undefined;
  try {
    server = await startBuiltServer(database);
    options.log(`trajectory ${kind}: sending the runs through /v1/traces`);
    const sender = createBenchSender(server.url, server.key);
    const now = Date.now();
    const small = emitRun(sender.tracer, longTrajectory(settings.smallSteps, now - 7_200_000));
    const large = emitRun(sender.tracer, longTrajectory(settings.largeSteps, now - 3_600_000));
    const lost = await sender.shutdown();
    if (lost > 0) throw new Error(`${lost} spans were not accepted by the server (busy?)`);
    // The other side of each diff, sent after (the exporter caps its concurrent exports): a
    // cycle of five actions against four, so the two runs of a pair differ throughout.
    const senderB = createBenchSender(server.url, server.key);
    const smallB = emitRun(senderB.tracer, longTrajectory(settings.smallSteps, now - 7_100_000, 4));
    const largeB = emitRun(senderB.tracer, longTrajectory(settings.largeSteps, now - 3_500_000, 4));
    const lostB = await senderB.shutdown();
    if (lostB > 0) throw new Error(`${lostB} spans were not accepted by the server (busy?)`);
    await waitForSteps(server, small, settings.smallSteps);
    await waitForSteps(server, large, settings.largeSteps);
    await waitForSteps(server, smallB, settings.smallSteps);
    await waitForSteps(server, largeB, settings.largeSteps);

    const context = await browser.newContext({ ...devices['Desktop Chrome'] });
    const url = (runId: string) => `${server!.url}/runs/${runId}`;
    const open = async (runId: string) => {
      const page = await context.newPage();
      try {
        return await openAndTime(page, url(runId));
      } finally {
        await page.close();
      }
    };
    options.log(`trajectory ${kind}: opening each run ${settings.iterations} times`);
    await open(small);
    await open(large);
    const timings: Record<'small' | 'large', OpenTiming[]> = { small: [], large: [] };
    for (let k = 0; k < settings.iterations; k++) {
      timings.small.push(await open(small));
      timings.large.push(await open(large));
    }

    // Mounted rows and scrolling on the big run, at the top, the end and the middle.
    const page = await context.newPage();
    await openAndTime(page, url(large));
    const grid = page.getByRole('grid', { name: 'Steps' });
    const positions: MountedRows[] = [await mountedRows(page)];
    await grid.focus();
    await page.keyboard.press('End');
    await page.waitForFunction(
      (n) => document.querySelector(`[role="row"][aria-rowindex="${n + 1}"][aria-selected="true"]`),
      settings.largeSteps,
    );
    positions.push(await mountedRows(page));
    await grid
      .locator('[tabindex="-1"]')
      .evaluate((el) => el.scrollTo({ top: el.scrollHeight / 2 }));
    await page.waitForTimeout(200);
    positions.push(await mountedRows(page));
    const scrolling = await scrollFrames(page);
    const smallPage = await context.newPage();
    await openAndTime(smallPage, url(small));
    const smallMounted = await mountedRows(smallPage);
    options.log(`trajectory ${kind}: diffing and comparing the pairs`);
    const diffRows = await measureDiff(
      kind,
      server,
      context,
      {
        small: { a: small, b: smallB, steps: settings.smallSteps },
        large: { a: large, b: largeB, steps: settings.largeSteps },
      },
      settings.iterations,
      notes,
    );
    await context.close();

    const p50 = (list: OpenTiming[], key: keyof OpenTiming) =>
      percentile(
        list.map((t) => t[key]).sort((a, b) => a - b),
        50,
      );
    const p95 = (list: OpenTiming[], key: keyof OpenTiming) =>
      percentile(
        list.map((t) => t[key]).sort((a, b) => a - b),
        95,
      );
    const label = (n: number) => `${n.toLocaleString('en-US')}-step run`;
    const worst = positions.reduce((a, b) =>
      b.mounted / b.visible > a.mounted / a.visible ? b : a,
    );
    notes.push(
      `${kind}: interactive samples (ms), ${label(settings.smallSteps)}: ${timings.small.map((t) => t.interactiveMs.toFixed(0)).join(', ')}; ${label(settings.largeSteps)}: ${timings.large.map((t) => t.interactiveMs.toFixed(0)).join(', ')}. Mounted/visible at top, end, middle: ${positions.map((p) => `${p.mounted}/${p.visible}`).join(', ')}; ${label(settings.smallSteps)}: ${smallMounted.mounted}/${smallMounted.visible}.`,
    );
    return [
      ...(['small', 'large'] as const).flatMap((size) => {
        const list = timings[size];
        const name = `${kind} ${label(size === 'small' ? settings.smallSteps : settings.largeSteps)}`;
        return [
          row(
            `${name}: interactive p50 / p95`,
            `${p50(list, 'interactiveMs').toFixed(0)} / ${p95(list, 'interactiveMs').toFixed(0)}`,
            'ms',
          ),
          row(`${name}: first row in the DOM, p50`, p50(list, 'firstRowMs'), 'ms'),
          row(`${name}: HTML`, Math.round(p50(list, 'htmlBytes') / 1024), 'KiB'),
          row(`${name}: longest main-thread task, p50`, p50(list, 'longestTaskMs'), 'ms'),
        ];
      }),
      targetRow(
        `${kind} interactive: ${label(settings.largeSteps)} ÷ ${label(settings.smallSteps)}`,
        p50(timings.large, 'interactiveMs') / p50(timings.small, 'interactiveMs'),
        { atMost: settings.maxRatio },
      ),
      targetRow(
        `${kind} ${label(settings.largeSteps)}: mounted ÷ visible step rows (worst of top, end, middle: ${worst.mounted}/${worst.visible})`,
        worst.mounted / worst.visible,
        { atMost: settings.maxMountedRatio },
      ),
      row(
        `${kind} ${label(settings.largeSteps)}: longest frame scrolling top to bottom (${scrolling.frames} frames)`,
        scrolling.longestFrameMs,
        'ms',
      ),
      ...diffRows,
    ];
  } finally {
    await server?.stop();
    await server?.close();
    await database.drop();
  }
}

/** Runs are derived after the 200: wait until the API shows all the run's steps. */
async function waitForSteps(server: BenchServer, runId: string, steps: number): Promise<void> {
  const deadline = Date.now() + 300_000;
  for (;;) {
    const response = await fetch(`${server.url}/api/v1/runs/${runId}`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    if (response.ok) {
      const { run } = (await response.json()) as { run: { stepCount: number } };
      if (run.stepCount === steps) return;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `run ${runId} did not reach ${steps} steps:\n${server.output().slice(-2000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function parseArgs(argv: string[]): TrajectoryBenchOptions {
  const trajectory: Partial<TrajectorySettings> = {};
  let databases: DatabaseKind[] = ['pglite'];
  let quick = false;
  for (const arg of argv) {
    const [key, value = ''] = arg.replace(/^--/, '').split('=');
    if (key === 'db') databases = value.split(',') as DatabaseKind[];
    else if (key === 'iterations') trajectory.iterations = Number(value);
    else if (key === 'quick') quick = true;
    else throw new Error(`unknown option ${arg}`);
  }
  return {
    ...benchOptions({ quick, databases, log: (m) => console.error(`[bench] ${m}`) }),
    trajectory,
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const options = parseArgs(process.argv.slice(2));
  ensureBuild(fileURLToPath(new URL('../..', import.meta.url)), options.log);
  const load = loadavg()[0]!.toFixed(2);
  const section = await run(options);
  console.log(
    formatReport(
      [section],
      `${machineLine()}; 1-min load average ${load} at the start, ${loadavg()[0]!.toFixed(2)} at the end`,
    ),
  );
}
