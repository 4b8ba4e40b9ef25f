// What the benchmark measures inside the page, and how: a script that runs before the page's own
// scripts (Playwright's addInitScript) and notes when the step list first shows a selected row
// (the answer to the keypresses the benchmark sends), long tasks, and mounted rows.
import type { Page } from 'playwright-core';

export interface PageProbe {
  /** performance.now() (ms since navigation start) when a step row first became selected. */
  answeredAt: number | null;
  longTasks: number[];
}

declare global {
  interface Window {
    __probe?: PageProbe;
  }
}

/** Installed before navigation; runs in the page. */
export function installProbe(): void {
  const probe: PageProbe = { answeredAt: null, longTasks: [] };
  window.__probe = probe;
  new MutationObserver((_, observer) => {
    if (document.querySelector('[role="grid"] [role="row"][aria-selected="true"]')) {
      probe.answeredAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { subtree: true, childList: true, attributeFilter: ['aria-selected'] });
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) probe.longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no long task timing in this browser
  }
}

export interface OpenTiming {
  /** Navigation start → the step list answered a keypress (the first selected row). */
  interactiveMs: number;
  /** Navigation start → the step list's first row was in the DOM (server-rendered HTML). */
  firstRowMs: number;
  /** Navigation start → DOMContentLoaded. */
  domContentLoadedMs: number;
  htmlBytes: number;
  longestTaskMs: number;
  keypresses: number;
}

/**
 * Opens the page and presses `j` on the step list until it answers. Before hydration a keypress
 * does nothing; the first one after it selects step 1. Each press is a round trip to the
 * browser (a few ms), so the answer is seen within a few ms of the page becoming interactive.
 */
export async function openAndTime(
  page: Page,
  url: string,
  gridName = 'Steps',
): Promise<OpenTiming> {
  await page.addInitScript(installProbe);
  await page.goto(url, { waitUntil: 'commit' });
  const grid = page.getByRole('grid', { name: gridName });
  const firstRow = grid.locator('[aria-rowindex="2"]');
  await firstRow.waitFor({ state: 'attached', timeout: 120_000 });
  const firstRowMs = await page.evaluate(() => performance.now());
  let keypresses = 0;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const answered = await page.evaluate(() => window.__probe?.answeredAt ?? null);
    if (answered !== null) break;
    if (Date.now() > deadline) throw new Error(`${url}: the step list never answered a keypress`);
    await grid.focus();
    await page.keyboard.press('j');
    keypresses++;
  }
  const measured = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0] as
      PerformanceNavigationTiming | undefined;
    return {
      answeredAt: window.__probe?.answeredAt ?? 0,
      longTasks: window.__probe?.longTasks ?? [],
      domContentLoaded: nav?.domContentLoadedEventEnd ?? 0,
      htmlBytes: nav?.decodedBodySize ?? 0,
    };
  });
  return {
    interactiveMs: measured.answeredAt,
    firstRowMs,
    domContentLoadedMs: measured.domContentLoaded,
    htmlBytes: measured.htmlBytes,
    longestTaskMs: Math.max(0, ...measured.longTasks),
    keypresses,
  };
}

export interface MountedRows {
  /** Step rows in the DOM (the header row not counted). */
  mounted: number;
  /** Rows the list's viewport can show. */
  visible: number;
}

export async function mountedRows(page: Page, gridName = 'Steps'): Promise<MountedRows> {
  return page.getByRole('grid', { name: gridName }).evaluate((grid) => {
    const scroller = grid.querySelector('[tabindex="-1"]') as HTMLElement;
    const row = grid.querySelector('[aria-rowindex="2"], [role="row"][aria-selected]');
    const height = (row as HTMLElement | null)?.offsetHeight || 30;
    return {
      mounted: grid.querySelectorAll('[role="row"]').length - 1,
      visible: Math.ceil(scroller.clientHeight / height),
    };
  });
}

/** Scrolls the list top to bottom in about 200 jumps, one per frame; the longest frame. */
export async function scrollFrames(
  page: Page,
): Promise<{ longestFrameMs: number; frames: number }> {
  // No named functions inside: tsx would wrap them in a helper the page does not have.
  return page.getByRole('grid', { name: 'Steps' }).evaluate(async (grid) => {
    const scroller = grid.querySelector('[tabindex="-1"]') as HTMLElement;
    scroller.scrollTop = 0;
    let last = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
    let longest = 0;
    let frames = 0;
    const stride = Math.max(1, Math.floor(scroller.scrollHeight / 200));
    for (let top = 0; top <= scroller.scrollHeight; top += stride) {
      scroller.scrollTop = top;
      const now = await new Promise<number>((resolve) => requestAnimationFrame(resolve));
      longest = Math.max(longest, now - last);
      last = now;
      frames++;
    }
    return { longestFrameMs: longest, frames };
  });
}
