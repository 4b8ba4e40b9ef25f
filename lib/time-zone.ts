// Calendar days and offsets in an IANA time zone, with nothing but Intl: the dashboard shows
// times in UTC or in the reader's own zone, and a day typed into a form means that zone's day.
export const UTC = 'UTC';
const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const partFormats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    partFormats.set(timeZone, format);
  }
  return format;
}

/** A name Intl knows as a time zone ("UTC", "Europe/Berlin"). */
export function isTimeZone(name: string): boolean {
  if (name.length === 0 || name.length > 64) return false;
  try {
    partsFormat(name);
    return true;
  } catch {
    return false;
  }
}

export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** The wall-clock reading of an instant in a zone. */
export function zonedParts(ms: number, timeZone: string): ZonedParts {
  const out: Record<string, number> = {};
  for (const part of partsFormat(timeZone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') out[part.type] = Number(part.value);
  }
  return {
    year: out.year ?? 1970,
    month: out.month ?? 1,
    day: out.day ?? 1,
    hour: out.hour ?? 0,
    minute: out.minute ?? 0,
    second: out.second ?? 0,
  };
}

/** How far the zone's clock is ahead of UTC at this instant, in milliseconds. */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const p = zonedParts(ms, timeZone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(ms / 1000) * 1000;
}

/** The instant a wall-clock time happens in a zone (the earlier one when a clock goes back). */
function zonedWallToMs(wallMs: number, timeZone: string): number {
  let guess = wallMs - zoneOffsetMs(wallMs, timeZone);
  // Twice: the offset at the guess can differ from the offset at the wall time across a change.
  for (let k = 0; k < 2; k++) {
    const next = wallMs - zoneOffsetMs(guess, timeZone);
    if (next === guess) break;
    guess = next;
  }
  return guess;
}

export function isDay(text: string): boolean {
  const m = DAY.exec(text);
  if (!m) return false;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().slice(0, 10) === text;
}

/** Midnight starting `YYYY-MM-DD` in the zone. */
export function zonedDayStartMs(day: string, timeZone: string): number {
  const m = DAY.exec(day);
  if (!m) throw new Error(`not a day: ${day}`);
  return zonedWallToMs(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])), timeZone);
}

/** The zone's calendar day of an instant, `YYYY-MM-DD`. */
export function zonedDay(ms: number, timeZone: string): string {
  const p = zonedParts(ms, timeZone);
  return `${String(p.year).padStart(4, '0')}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

export function addDays(day: string, days: number): string {
  const m = DAY.exec(day);
  if (!m) throw new Error(`not a day: ${day}`);
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) + days * DAY_MS)
    .toISOString()
    .slice(0, 10);
}

/** The start of the zone's day that holds the instant. */
export function startOfZonedDayMs(ms: number, timeZone: string): number {
  return zonedDayStartMs(zonedDay(ms, timeZone), timeZone);
}

/** "UTC" for UTC, else the zone's name and its offset now: "Europe/Berlin (UTC+1)". */
export function describeTimeZone(timeZone: string, atMs = Date.now()): string {
  if (timeZone === UTC) return UTC;
  const minutes = Math.round(zoneOffsetMs(atMs, timeZone) / 60_000);
  const sign = minutes < 0 ? '−' : '+';
  const h = Math.floor(Math.abs(minutes) / 60);
  const m = Math.abs(minutes) % 60;
  return `${timeZone} (UTC${sign}${h}${m ? `:${String(m).padStart(2, '0')}` : ''})`;
}
