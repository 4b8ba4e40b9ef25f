'use client';

import { useEffect, useState } from 'react';

export type CachedJson<T> =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'ready'; value: T }
  | { status: 'error'; message: string };

const DEBOUNCE_MS = 90;

/**
 * The JSON answer at `url` (null: none wanted), parsed by `schema`, asked for once the URL stays
 * wanted for a moment (holding j over rows does not fire a request per row) and kept per URL,
 * up to `cacheSize` answers. An error answer's `error.message` is the state's message.
 */
export function useCachedJson<T>(
  url: string | null,
  schema: { parse(body: unknown): T },
  cacheSize: number,
): CachedJson<T> {
  const [values, setValues] = useState<ReadonlyMap<string, T>>(new Map());
  const [errors, setErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const known = url !== null && values.has(url);

  useEffect(() => {
    if (url === null || known) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const response = await fetch(url, {
          signal: controller.signal,
          headers: { accept: 'application/json' },
        });
        const body: unknown = await response.json();
        if (!response.ok) {
          const message = (body as { error?: { message?: string } }).error?.message;
          throw new Error(message ?? `the server answered ${response.status}`);
        }
        const value = schema.parse(body);
        setValues((prev) => new Map(prev.size >= cacheSize ? [] : prev).set(url, value));
      } catch (error) {
        if (controller.signal.aborted) return;
        const message = error instanceof Error ? error.message : 'unknown error';
        setErrors((prev) => new Map(prev).set(url, message));
      }
    }, DEBOUNCE_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [url, known, schema, cacheSize]);

  if (url === null) return { status: 'idle' };
  if (values.has(url)) return { status: 'ready', value: values.get(url) as T };
  const message = errors.get(url);
  return message === undefined ? { status: 'loading' } : { status: 'error', message };
}
