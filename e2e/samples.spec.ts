import { createProjectKey, uniqueName } from './support/projects';
import { expect, test } from './support/fixtures';

test('an empty project’s "Load sample runs" fills the dashboard with the sample loops', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const project = uniqueName('samples');
  await createProjectKey(project);
  await page.goto(`/?project=${project}`);
  await page.getByRole('button', { name: 'Load sample runs' }).click();
  // A few seconds of work: the button says so, and cannot be pressed twice.
  const busy = page.getByRole('button', { name: 'Loading sample runs…' });
  await expect(busy).toBeDisabled();
  await expect(busy).toHaveAttribute('aria-busy', 'true');
  await expect(page.getByRole('status')).toContainText('Sending four weeks of sample runs');
  await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible({ timeout: 60_000 });
  await page.goto(`/?project=${project}&window=30d`);
  await expect(page.getByRole('link', { name: /^No progress: \d+ runs?/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Escalated: \d+ runs?/ })).toBeVisible();
});
