import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSender } from './support/otel';
import { createProjectKey, uniqueName } from './support/projects';
import { emitRun } from './support/scenarios';
import { freePort, spawnServer } from './support/spawn-server';
import { expect, test } from './support/fixtures';

const HOSTILE = {
  img: '<img src=x onerror="window.__xss=1;alert(1)">',
  script: '<script>window.__xss=2;alert(2)</script>',
  link: 'javascript:window.__xss=3',
  markdown: '![tracker](http://evil.example/pixel.png) [click](javascript:alert(4))',
};

test('pages carry a Content-Security-Policy that forbids inline script', async ({ request }) => {
  for (const page of ['/', '/reports/weekly', '/prices']) {
    const response = await request.get(page);
    const policy = response.headers()['content-security-policy'] ?? '';
    const scriptSrc = policy.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
    expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/=]+'/);
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(policy).toContain("frame-ancestors 'none'");
  }
});

test('hostile names, arguments and results run no script and send no request away', async ({
  page,
  baseURL,
}) => {
  const project = uniqueName('xss');
  const key = await createProjectKey(project);
  const sender = createSender({ url: baseURL ?? '', key, protocol: 'proto', gzip: true });
  const runId = `xss-${HOSTILE.img}`;
  emitRun(sender.tracer, {
    runId,
    goal: `${HOSTILE.img} ${HOSTILE.markdown}`,
    agent: HOSTILE.script,
    variant: HOSTILE.link,
    steps: [
      {
        action: HOSTILE.link,
        args: { a: HOSTILE.img, b: HOSTILE.markdown },
        result: HOSTILE.script,
        costUsd: 0.01,
      },
      {
        action: HOSTILE.img,
        args: HOSTILE.script,
        result: { html: HOSTILE.img, md: HOSTILE.markdown },
        costUsd: 0.01,
      },
    ],
    end: { termination: { kind: 'hard_error', error: HOSTILE.script } },
  });
  await sender.shutdown();

  const dialogs: string[] = [];
  const foreign: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('request', (req) => {
    if (!req.url().startsWith(baseURL ?? '') && !req.url().startsWith('data:'))
      foreign.push(req.url());
  });

  await page.goto(`/?project=${project}`);
  await expect(page.getByRole('link', { name: new RegExp('img src=x') }).first()).toBeVisible();
  await page.goto(`/runs/${encodeURIComponent(runId)}?project=${project}`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('<img src=x onerror=');
  for (const row of [1, 2]) {
    await page
      .getByRole('row', { name: new RegExp(`^${row}\\b`) })
      .first()
      .click();
    await expect(page.getByText(/"b":|"html":/).first()).toBeVisible();
  }
  expect(
    await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
  ).toBeUndefined();
  expect(await page.locator('img[src="x"], script:not([src]):not([nonce])').count()).toBe(0);
  expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
  expect(dialogs).toEqual([]);
  expect(foreign).toEqual([]);
});

test('bound beyond loopback, the dashboard asks for a login; keys and the API are unaffected', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const key = 'lsk_door-test-key-0123456789abcdef';
  const password = 'open sesame, please';
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'loopscope-door-')), 'data');
  const env = { HOST: '0.0.0.0', LOOPSCOPE_DATA_DIR: dataDir, LOOPSCOPE_INIT_API_KEY: key };

  const refused = spawnServer(env, freePort());
  await expect(refused).rejects.toThrow(/LOOPSCOPE_DASHBOARD_PASSWORD/);

  const server = await spawnServer({ ...env, LOOPSCOPE_DASHBOARD_PASSWORD: password }, freePort());
  try {
    const sender = createSender({ url: server.url, key, protocol: 'json' });
    emitRun(sender.tracer, {
      goal: 'Reach the door',
      agent: 'door-agent',
      steps: [{ action: 'knock', costUsd: 0.01 }],
    });
    await sender.shutdown();
    const api = await fetch(`${server.url}/api/v1/runs`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(api.status).toBe(200);
    const anonymous = await fetch(`${server.url}/`, { redirect: 'manual' });
    expect(anonymous.status).toBe(307);
    expect(anonymous.headers.get('location')).toContain('/login');
    expect((await fetch(`${server.url}/api/ui/demo`, { method: 'POST' })).status).toBe(401);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/runs/nothing-here`);
    await expect(page).toHaveURL(/\/login\?next=%2Fruns%2Fnothing-here/);
    await page.getByLabel('Dashboard password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'not the one' })).toBeVisible();
    await page.getByLabel('Dashboard password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/runs\/nothing-here/);
    await page.goto(`${server.url}/`);
    await expect(page.getByText('Reach the door')).toBeVisible();
    const cookie = (await context.cookies()).find((c) => c.name === 'loopscope_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login/);
    await page.goto(`${server.url}/`);
    await expect(page).toHaveURL(/\/login/);
    await context.close();
    expect(server.output()).not.toContain(key);
    expect(server.output()).not.toContain(password);
  } finally {
    await server.kill('SIGTERM');
  }
});
