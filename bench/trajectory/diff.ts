// The diff of two big runs (issue 16): two 10,000-step runs whose actions differ throughout
// (cycles of four and five actions), against a 100-step pair of the same shape. Server time is
// GET /api/v1/runs/{a}/diff/{b} end to end from a client on the same machine; the page is
// /runs/compare, timed to interactive as the trajectory page is.
import type { BrowserContext } from 'playwright-core';
import { percentile, row, targetRow } from '../shared/report';
import type { BenchRow } from '../shared/report';
import type { BenchServer } from '../shared/server';
import { mountedRows, openAndTime } from './page-probe';
import type { OpenTiming } from './page-probe';

export interface DiffPairs {
  small: { a: string; b: string; steps: number };
  large: { a: string; b: string; steps: number };
}

const GRID = 'Aligned steps';

export async function measureDiff(
  kind: string,
  server: BenchServer,
  context: BrowserContext,
  pairs: DiffPairs,
  iterations: number,
  notes: string[],
): Promise<BenchRow[]> {
  const api = async (pair: { a: string; b: string }) => {
    const started = performance.now();
    const response = await fetch(`${server.url}/api/v1/runs/${pair.a}/diff/${pair.b}`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    const body = (await response.json()) as { alignment?: unknown[] };
    if (!response.ok || !body.alignment) throw new Error(`diff answered ${response.status}`);
    return performance.now() - started;
  };
  const page = async (pair: { a: string; b: string }) => {
    const tab = await context.newPage();
    try {
      return await openAndTime(tab, `${server.url}/runs/compare?a=${pair.a}&b=${pair.b}`, GRID);
    } finally {
      await tab.close();
    }
  };
  await api(pairs.small);
  await api(pairs.large);
  await page(pairs.small);
  await page(pairs.large);
  const serverMs = { small: [] as number[], large: [] as number[] };
  const opens = { small: [] as OpenTiming[], large: [] as OpenTiming[] };
  for (let k = 0; k < iterations; k++) {
    serverMs.small.push(await api(pairs.small));
    serverMs.large.push(await api(pairs.large));
    opens.small.push(await page(pairs.small));
    opens.large.push(await page(pairs.large));
  }
  const tab = await context.newPage();
  await openAndTime(tab, `${server.url}/runs/compare?a=${pairs.large.a}&b=${pairs.large.b}`, GRID);
  const mounted = await mountedRows(tab, GRID);
  await tab.close();
  const p50 = (values: number[]) =>
    percentile(
      [...values].sort((x, y) => x - y),
      50,
    );
  const label = (n: number) => `${n.toLocaleString('en-US')}-step pair`;
  const small = label(pairs.small.steps);
  const large = label(pairs.large.steps);
  const interactive = (list: OpenTiming[]) => p50(list.map((t) => t.interactiveMs));
  notes.push(
    `${kind} diff: server samples (ms), ${small}: ${serverMs.small.map((v) => v.toFixed(0)).join(', ')}; ${large}: ${serverMs.large.map((v) => v.toFixed(0)).join(', ')}. Compare page interactive (ms), ${small}: ${opens.small.map((t) => t.interactiveMs.toFixed(0)).join(', ')}; ${large}: ${opens.large.map((t) => t.interactiveMs.toFixed(0)).join(', ')}.`,
  );
  return [
    row(`${kind} diff API, ${small}: p50`, p50(serverMs.small), 'ms'),
    row(`${kind} diff API, ${large}: p50`, p50(serverMs.large), 'ms'),
    row(`${kind} compare page, ${small}: interactive p50`, interactive(opens.small), 'ms'),
    row(`${kind} compare page, ${large}: interactive p50`, interactive(opens.large), 'ms'),
    targetRow(
      `${kind} compare page interactive: ${large} ÷ ${small}`,
      interactive(opens.large) / interactive(opens.small),
      { atMost: 3 },
    ),
    targetRow(
      `${kind} compare page, ${large}: mounted ÷ visible rows (${mounted.mounted}/${mounted.visible})`,
      mounted.mounted / mounted.visible,
      { atMost: 2 },
    ),
  ];
}
