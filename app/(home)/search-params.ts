// The home page's URL, parsed once: the read API's run-list parameters plus the project and a
// named time window. Presets are relative to now; `custom` uses `from` and `to`.
import { z } from 'zod';
import { parseSearch, projectName, runListParams, searchParamsObject } from '@/lib/filters';
import type { RunListParams, TimeWindow } from '@/lib/filters';

export const WINDOW_PRESETS = ['24h', '7d', '30d'] as const;
export type WindowPreset = (typeof WINDOW_PRESETS)[number];
export type WindowChoice = WindowPreset | 'custom';

const PRESET_MS: Record<WindowPreset, number> = {
  '24h': 24 * 3600_000,
  '7d': 7 * 24 * 3600_000,
  '30d': 30 * 24 * 3600_000,
};
export const DEFAULT_PRESET: WindowPreset = '7d';
const DAY_MS = 24 * 3600_000;

export const homeParams = runListParams.extend({
  project: projectName.optional(),
  window: z.enum([...WINDOW_PRESETS, 'custom']).optional(),
});

export interface HomeQuery {
  params: RunListParams & { project?: string };
  /** The query as given (valid keys only), for links that change one thing. */
  raw: Record<string, string>;
  choice: WindowChoice;
  window: TimeWindow;
}

export type HomeQueryResult = { ok: true; query: HomeQuery } | { ok: false; problem: string };

export function parseHomeQuery(
  search: Record<string, string | string[] | undefined>,
  now = new Date(),
): HomeQueryResult {
  const raw = searchParamsObject(search);
  const parsed = parseSearch(homeParams, raw);
  if (!parsed.ok) return { ok: false, problem: parsed.message };
  const { window: named, ...params } = parsed.data;
  const custom =
    named === 'custom' ||
    (named === undefined && (params.from !== undefined || params.to !== undefined));
  const choice: WindowChoice = custom ? 'custom' : (named ?? DEFAULT_PRESET);
  let window: TimeWindow;
  if (choice === 'custom') {
    // A date without a time names a whole day: `to=2026-11-30` includes the 30th.
    const to = params.to
      ? new Date(params.to.getTime() + (raw.to?.length === 10 ? DAY_MS : 0))
      : now;
    const from = params.from ?? new Date(to.getTime() - PRESET_MS[DEFAULT_PRESET]);
    if (from >= to) return { ok: false, problem: 'from: the window must start before it ends' };
    window = { from, to };
  } else {
    window = { from: new Date(now.getTime() - PRESET_MS[choice as WindowPreset]), to: now };
  }
  const known = new Set(Object.keys(homeParams.shape));
  const kept = Object.fromEntries(Object.entries(raw).filter(([k]) => known.has(k)));
  return { ok: true, query: { params, raw: kept, choice, window } };
}
