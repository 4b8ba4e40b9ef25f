// The window and zone of a report page, read as every page reads them (lib/view-window.ts).
import { resolveViewWindow, viewQuery } from '@/lib/view-window';
import type { ViewWindow } from '@/lib/view-window';
import { pageTimeZone } from '../page-time-zone';

export async function reportView(
  query: Record<string, string>,
  now: Date,
): Promise<{ window: ViewWindow; view: Record<string, string> }> {
  const window = resolveViewWindow(query, await pageTimeZone(query), now);
  return { window, view: viewQuery(query) };
}
