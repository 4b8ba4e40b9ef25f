import type { z } from 'zod';
import { AppError } from '@/lib/app-error';
import { searchParamsObject } from '@/lib/filters';

/** Query parameters through a zod schema; a bad one is a 400 that names it. */
export function parseQuery<T extends z.ZodType>(request: Request, schema: T): z.infer<T> {
  const result = schema.safeParse(searchParamsObject(new URL(request.url).searchParams));
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new AppError(
      'bad_request',
      `${issue?.path.join('.') || 'query'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return result.data;
}
