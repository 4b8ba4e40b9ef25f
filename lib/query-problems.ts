// Every problem with a URL's parameters, each naming its parameter: a page or a 400 that names
// only the first leaves the reader to find the rest one reload at a time.
import type { z } from 'zod';

export function queryProblems(error: z.ZodError): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const issue of error.issues) {
    const text = `${issue.path.join('.') || 'query'}: ${issue.message}`;
    if (!seen.has(text)) {
      seen.add(text);
      out.push(text);
    }
  }
  return out;
}
