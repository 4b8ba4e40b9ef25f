// The sizes and colour schemes every page is checked at, and what "usable" means there: nothing
// wider than the screen, and the controls reachable with the keyboard alone.
import type { Locator, Page } from '@playwright/test';
import { expect } from '@playwright/test';

export const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;
export const SCHEMES = ['light', 'dark'] as const;

/** Every combination, for loops that check a page at each. */
export const LOOKS = VIEWPORTS.flatMap((viewport) =>
  SCHEMES.map((scheme) => ({ viewport, scheme, name: `${viewport.name}-${scheme}` })),
);

export async function look(page: Page, l: (typeof LOOKS)[number]): Promise<void> {
  await page.setViewportSize({ width: l.viewport.width, height: l.viewport.height });
  await page.emulateMedia({ colorScheme: l.scheme });
}

/** The page does not scroll sideways: what is wider than the screen names itself if it does. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => {
    const width = window.innerWidth;
    const wide = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 40)}`);
    return { scrollWidth: document.documentElement.scrollWidth, width, wide };
  });
  expect(
    overflow.scrollWidth,
    `wider than the screen: ${overflow.wide.join(', ')}`,
  ).toBeLessThanOrEqual(overflow.width);
}

/** Presses Tab until the target has the focus (from wherever the focus is). */
export async function tabTo(page: Page, target: Locator, max = 120): Promise<number> {
  const handle = await target.elementHandle();
  if (!handle) throw new Error('no such element to tab to');
  for (let k = 1; k <= max; k++) {
    await page.keyboard.press('Tab');
    if (await handle.evaluate((el) => el === document.activeElement)) return k;
  }
  throw new Error(`Tab did not reach the element in ${max} presses`);
}

/** The element is inside the viewport (what a reader sees without scrolling). */
export async function expectInView(page: Page, target: Locator): Promise<void> {
  const box = await target.boundingBox();
  const size = page.viewportSize();
  expect(box, 'the element has a box').not.toBeNull();
  if (!box || !size) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(size.width + 0.5);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.y + box.height).toBeLessThanOrEqual(size.height + 0.5);
}

/** Nothing covers the element's middle: a click there reaches it. */
export async function expectUncovered(target: Locator): Promise<void> {
  const uncovered = await target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return hit !== null && (hit === el || el.contains(hit));
  });
  expect(uncovered, 'nothing lies over it').toBe(true);
}
