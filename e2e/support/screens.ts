import type { Page, TestInfo } from '@playwright/test';

/** A full-page screenshot kept with the test's results (and attached to its report). */
export async function keepScreen(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}
