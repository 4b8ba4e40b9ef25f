// Links that change some query parameters and keep the rest: every view is a shareable URL.

export type QueryPatch = Record<string, string | null | undefined>;

/** `pathname?query` with `patch` applied (null or undefined removes a key). Any filter change
 * starts again at the first page, so the keyset cursor goes unless the patch sets it. */
export function hrefWith(
  pathname: string,
  current: Record<string, string> | URLSearchParams,
  patch: QueryPatch,
): string {
  const params = new URLSearchParams(current instanceof URLSearchParams ? current : current);
  if (!('cursor' in patch)) params.delete('cursor');
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || value === undefined || value === '') params.delete(key);
    else params.set(key, value);
  }
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}
