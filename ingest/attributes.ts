// Typed reads of untrusted attribute maps. Every reader takes several keys in priority order, so
// the fallbacks of docs/conventions.md read as one list at the call site.
import type { AttributeValue, Attributes } from './otlp/types';
import { parseBoundedJson } from '../trajectory/bounded-json';

function first(attrs: Attributes, keys: readonly string[]): AttributeValue | undefined {
  for (const key of keys) {
    if (Object.hasOwn(attrs, key)) {
      const value = attrs[key];
      if (value !== null && value !== undefined && value !== '') return value;
    }
  }
  return undefined;
}

export function readString(attrs: Attributes, ...keys: string[]): string | null {
  const value = first(attrs, keys);
  if (value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Numbers may arrive as intValue, doubleValue or numeric strings. */
export function readNumber(attrs: Attributes, ...keys: string[]): number | null {
  const value = first(attrs, keys);
  return toNumber(value);
}

export function toNumber(value: AttributeValue | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  }
  return null;
}

export function readInteger(attrs: Attributes, ...keys: string[]): number | null {
  const value = readNumber(attrs, ...keys);
  return value !== null && Number.isInteger(value) ? value : null;
}

export function readBoolean(attrs: Attributes, ...keys: string[]): boolean | null {
  const value = first(attrs, keys);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const lower = value.trim().toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
  }
  if (typeof value === 'number') return value !== 0;
  return null;
}

/** A value that may be JSON inside a string (many exporters send it so) or structured already. */
export function readStructured(attrs: Attributes, ...keys: string[]): unknown {
  const value = first(attrs, keys);
  if (value === undefined) return undefined;
  return typeof value === 'string' ? parseJson(value) : value;
}

export function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return text;
  const parsed = parseBoundedJson(trimmed);
  return parsed.ok ? parsed.value : text;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function getOwn(value: unknown, key: string): unknown {
  return isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}
