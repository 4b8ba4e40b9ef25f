// Number, money, time and duration formats shared by every screen. Dates are shown in the zone
// the page was asked for (UTC unless the reader chose another) with a fixed locale, so the
// server's HTML and the browser's render agree.

const count = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

export function formatCount(value: number): string {
  return count.format(value);
}

export function formatCompact(value: number): string {
  return Math.abs(value) < 10_000 ? count.format(value) : compact.format(value);
}

export function formatUsd(value: number): string {
  if (value === 0) return '$0';
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 1 ? 2 : abs >= 0.01 ? 3 : 4;
  const text = abs < 0.0001 ? '<0.0001' : abs.toFixed(digits);
  return `${value < 0 ? '−' : ''}$${text}`;
}

/** A difference in dollars too small to show at formatUsd's finest (4 decimals): no change. */
export function isNoChangeUsd(difference: number): boolean {
  return Math.abs(difference) < 0.00005;
}

export function formatShare(share: number): string {
  if (share === 0) return '0%';
  if (share < 0.001) return '<0.1%';
  return `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;
}

export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(s < 10 ? 2 : 1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} m ${String(Math.floor(s % 60)).padStart(2, '0')} s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${String(m % 60).padStart(2, '0')} m`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

type DateStyle = 'dateTime' | 'dayHour' | 'day';
const DATE_OPTIONS: Record<DateStyle, Intl.DateTimeFormatOptions> = {
  dateTime: {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  },
  dayHour: { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  day: { month: 'short', day: 'numeric' },
};
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(style: DateStyle, timeZone: string): Intl.DateTimeFormat {
  const key = `${style}|${timeZone}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { ...DATE_OPTIONS[style], timeZone });
    dateFormats.set(key, format);
  }
  return format;
}

/** "Nov 30, 14:05" in the zone (UTC unless told). */
export function formatShortDateTime(value: string | number | Date, timeZone = 'UTC'): string {
  return dateFormat('dayHour', timeZone).format(new Date(value));
}

/** "Nov 30, 14:05:09" in the zone (UTC unless told). */
export function formatDateTime(value: string | number | Date, timeZone = 'UTC'): string {
  return dateFormat('dateTime', timeZone).format(new Date(value));
}

/** A chart tick: "Nov 30, 14:00" for hours, "Nov 30" for days and weeks. */
export function formatBucket(
  startMs: number,
  bucket: 'hour' | 'day' | 'week',
  timeZone = 'UTC',
): string {
  return dateFormat(bucket === 'hour' ? 'dayHour' : 'day', timeZone).format(new Date(startMs));
}

/** The first characters of a hash, enough to tell hashes apart by eye. */
export function shortHash(hash: string | null): string {
  return hash === null ? '—' : hash.slice(0, 8);
}

/** Pretty-printed JSON when the text is JSON, else the text as it came. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text) as unknown, null, 2);
  } catch {
    return text;
  }
}
