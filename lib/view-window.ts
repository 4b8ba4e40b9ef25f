// The one time window and time zone of the dashboard: every page reads them from the same URL
// parameters, resolves them the same way, and every link between pages carries them. A day in
// `from` / `to` is a day in the chosen zone; `to` names the last day included.
import './zod-in-browser';
import { z } from 'zod';
import { UTC, addDays, isDay, isTimeZone, zonedDay, zonedDayStartMs } from './time-zone';

export const WINDOW_PRESETS = ['24h', '7d', '30d', '90d'] as const;
export type WindowPreset = (typeof WINDOW_PRESETS)[number];
export type WindowChoice = WindowPreset | 'custom';

const HOUR_MS = 3_600_000;
export const PRESET_MS: Record<WindowPreset, number> = {
  '24h': 24 * HOUR_MS,
  '7d': 7 * 24 * HOUR_MS,
  '30d': 30 * 24 * HOUR_MS,
  '90d': 90 * 24 * HOUR_MS,
};
export const PRESET_LABELS: Record<WindowPreset, string> = {
  '24h': '24 h',
  '7d': '7 d',
  '30d': '30 d',
  '90d': '90 d',
};
/** Every page opens on the same window. */
export const DEFAULT_PRESET: WindowPreset = '30d';

/** The parameters that mean the same on every page, carried by every link between pages. */
export const VIEW_KEYS = ['project', 'window', 'from', 'to', 'tz'] as const;
export type ViewKey = (typeof VIEW_KEYS)[number];

export const TIME_ZONE_COOKIE = 'loopscope_tz';

/** `window` and `tz`; each page's schema has `from` and `to` already (as lib/filters reads them). */
export const viewParams = z.object({
  window: z
    .enum([...WINDOW_PRESETS, 'custom'], {
      error: `must be one of ${[...WINDOW_PRESETS, 'custom'].join(', ')}`,
    })
    .optional(),
  tz: z
    .string()
    .refine(isTimeZone, { message: 'not a time zone: use UTC or a name such as Europe/Berlin' })
    .optional(),
});

export interface ViewWindow {
  choice: WindowChoice;
  from: Date;
  to: Date;
  timeZone: string;
}

/** The zone to show times in: the URL's, else the one the reader chose before, else UTC. */
export function chooseTimeZone(
  fromUrl: string | undefined,
  remembered: string | undefined,
): string {
  if (fromUrl !== undefined && isTimeZone(fromUrl)) return fromUrl;
  if (remembered !== undefined && isTimeZone(remembered)) return remembered;
  return UTC;
}

/** The window a page shows, from parameters its schema has already checked. */
export function resolveViewWindow(
  raw: { window?: string; from?: string; to?: string },
  timeZone: string,
  now: Date,
): ViewWindow {
  const preset = WINDOW_PRESETS.find((p) => p === raw.window);
  const custom =
    raw.window === 'custom' ||
    (preset === undefined && (raw.from !== undefined || raw.to !== undefined));
  if (!custom) {
    const choice = preset ?? DEFAULT_PRESET;
    return { choice, from: new Date(now.getTime() - PRESET_MS[choice]), to: now, timeZone };
  }
  const to =
    raw.to === undefined
      ? now
      : new Date(
          isDay(raw.to) ? zonedDayStartMs(addDays(raw.to, 1), timeZone) : Date.parse(raw.to),
        );
  const from =
    raw.from === undefined
      ? new Date(to.getTime() - PRESET_MS[DEFAULT_PRESET])
      : new Date(isDay(raw.from) ? zonedDayStartMs(raw.from, timeZone) : Date.parse(raw.from));
  return { choice: 'custom', from, to, timeZone };
}

/** The problem with a resolved window, if any, named as its parameter. */
export function windowProblem(window: ViewWindow): string | null {
  return window.from.getTime() < window.to.getTime() ? null : 'from: must be before to';
}

/** The first and the last day of the window in its zone, as a form shows them. */
export function windowDays(window: ViewWindow): { from: string; to: string } {
  return {
    from: zonedDay(window.from.getTime(), window.timeZone),
    to: zonedDay(window.to.getTime() - 1, window.timeZone),
  };
}

/** The view parameters of a query, for links to other pages. */
export function viewQuery(
  query: Record<string, string | undefined> | URLSearchParams,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of VIEW_KEYS) {
    const value = query instanceof URLSearchParams ? query.get(key) : query[key];
    if (value !== undefined && value !== null && value !== '') out[key] = value;
  }
  return out;
}

/** `path` with the view parameters of `query`, and `extra` on top. */
export function viewHref(
  path: string,
  query: Record<string, string | undefined> | URLSearchParams,
  extra: Record<string, string | undefined> = {},
): string {
  const params = new URLSearchParams(viewQuery(query));
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined || value === '') params.delete(key);
    else params.set(key, value);
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
