// The home page's URL, parsed once: the read API's run-list parameters plus the project and the
// one window of every page (lib/view-window.ts). Pure, so the not-found page names the same
// problems in the browser that the server found.
import '@/lib/zod-in-browser';
import { parseSearch, projectName, runListParams, searchParamsObject } from '@/lib/filters';
import type { RunListParams } from '@/lib/filters';
import { CURSOR_PROBLEM, decodeRunCursor } from '@/lib/run-cursor';
import { resolveViewWindow, viewParams, windowProblem } from '@/lib/view-window';
import type { ViewWindow, WindowChoice } from '@/lib/view-window';

export const homeParams = runListParams
  .extend({ project: projectName.optional() })
  .extend(viewParams.shape)
  .superRefine((value, ctx) => {
    if (value.cursor !== undefined && decodeRunCursor(value.cursor, value.sort) === null) {
      ctx.addIssue({ code: 'custom', path: ['cursor'], message: CURSOR_PROBLEM });
    }
  });

export interface HomeQuery {
  params: RunListParams & { project?: string };
  /** The query as given (valid keys only), for links that change one thing. */
  raw: Record<string, string>;
  choice: WindowChoice;
  window: ViewWindow;
}

export type HomeQueryResult = { ok: true; query: HomeQuery } | { ok: false; problems: string[] };

export function parseHomeQuery(
  search: Record<string, string | string[] | undefined> | URLSearchParams,
  now: Date,
  timeZone: string,
): HomeQueryResult {
  const raw = searchParamsObject(search);
  const parsed = parseSearch(homeParams, raw);
  if (!parsed.ok) return { ok: false, problems: parsed.problems };
  const { window: _named, tz: _tz, ...params } = parsed.data;
  const window = resolveViewWindow(raw, timeZone, now);
  const problem = windowProblem(window);
  if (problem) return { ok: false, problems: [problem] };
  const known = new Set<string>([
    ...Object.keys(runListParams.shape),
    ...Object.keys(viewParams.shape),
    'project',
  ]);
  const kept = Object.fromEntries(Object.entries(raw).filter(([k]) => known.has(k)));
  return { ok: true, query: { params, raw: kept, choice: window.choice, window } };
}
