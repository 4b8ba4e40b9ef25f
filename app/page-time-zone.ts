// The zone a page shows times in: `?tz=` first, else the reader's earlier choice (a cookie the
// time-zone switch writes), else UTC (lib/view-window.ts chooseTimeZone).
import { cookies } from 'next/headers';
import { TIME_ZONE_COOKIE, chooseTimeZone } from '@/lib/view-window';

export async function pageTimeZone(query: { tz?: string }): Promise<string> {
  const remembered = (await cookies()).get(TIME_ZONE_COOKIE)?.value;
  return chooseTimeZone(query.tz, remembered === undefined ? undefined : safeDecode(remembered));
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
