import type { z } from 'zod';
import { AppError } from '@/lib/app-error';
import { parseSearch } from '@/lib/filters';

/** Query parameters through a zod schema; a bad one is a 400 that names it. */
export function parseQuery<T extends z.ZodType>(request: Request, schema: T): z.infer<T> {
  const result = parseSearch(schema, new URL(request.url).searchParams);
  if (!result.ok) throw new AppError('bad_request', result.message);
  return result.data;
}
