import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { rawRequest } from './support/raw-http';
import { keepScreen } from './support/screens';
import { freePort, spawnServer } from './support/spawn-server';
import { expect, test } from './support/fixtures';

const ATTACKER = 'attacker.example';

test('on loopback a foreign Host (DNS rebinding) is refused on pages, actions and UI routes; bearer-key routes answer any Host', async ({
  server,
}) => {
  const port = new URL(server.url).port;
  const foreign = { host: `${ATTACKER}:${port}` };
  for (const page of ['/', '/runs/anything', '/reports/weekly', '/prices', '/login']) {
    const answer = await rawRequest(`${server.url}${page}`, { headers: foreign });
    expect(answer.status, page).toBe(421);
    expect(answer.body).toContain('does not answer to the host');
    expect(answer.headers['content-security-policy']).toBeTruthy();
  }
  const ui = await rawRequest(`${server.url}/api/ui/demo`, {
    method: 'POST',
    headers: { ...foreign, origin: `http://${ATTACKER}:${port}` },
  });
  expect(ui.status).toBe(421);
  const span = await rawRequest(`${server.url}/runs/x/steps/1/span`, { headers: foreign });
  expect(span.status).toBe(421);
  const action = await rawRequest(`${server.url}/`, {
    method: 'POST',
    headers: { ...foreign, 'next-action': 'any', 'next-router-prefetch': '1' },
  });
  expect(action.status).toBe(421);

  // Its own names still open it; programs with keys may name any host.
  expect(
    (await rawRequest(`${server.url}/`, { headers: { host: `localhost:${port}` } })).status,
  ).toBe(200);
  const api = await rawRequest(`${server.url}/api/v1/runs`, {
    headers: { ...foreign, authorization: `Bearer ${server.key}` },
  });
  expect(api.status).toBe(200);
  const ingest = await rawRequest(`${server.url}/v1/traces`, {
    method: 'POST',
    headers: {
      ...foreign,
      authorization: `Bearer ${server.key}`,
      'content-type': 'application/json',
    },
    body: '{"resourceSpans":[]}',
  });
  expect(ingest.status).toBe(200);
});

test('a server action aimed past the dashboard’s pages is refused 403 at the edge', async ({
  server,
}) => {
  for (const target of ['/v1/x', '/api/v1/x', '/api/v1/runs', '/favicon.ico', '/api/health']) {
    const answer = await rawRequest(`${server.url}${target}`, {
      method: 'POST',
      headers: { 'next-action': 'abc123', origin: 'http://attacker.example' },
      body: '[]',
    });
    expect(answer.status, target).toBe(403);
    expect(answer.body, target).toContain('dashboard pages only');
  }
});

test('text and dates a database cannot take answer 4xx on every page, never a 500', async ({
  server,
}) => {
  for (const page of [
    '/?agent=%00',
    '/?variant=%ED%A0%80',
    '/?from=0000-01-01',
    '/runs/%00',
    '/runs/%ED%A0%80',
    '/runs/x?project=%00',
    '/reports/compare?a=%00',
    '/reports/weekly?from=0000-01-01',
    '/reports/caps?agent=%00',
    '/prices?project=%00',
    '/reports/weekly/export?project=%00',
    '/runs/a%00b/steps/1/span',
  ]) {
    const answer = await rawRequest(`${server.url}${page}`);
    expect(answer.status, page).toBeLessThan(500);
  }
  for (const page of ['/api/v1/runs/%ED%A0%80', '/api/v1/runs?agent=%00', '/api/v1/runs/%00']) {
    const answer = await rawRequest(`${server.url}${page}`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    expect(answer.status, page).toBeGreaterThanOrEqual(400);
    expect(answer.status, page).toBeLessThan(500);
  }
});

test('with a login: a prefetch-header action is refused, login is throttled, next stays on the origin, logout revokes, the cookie is Secure behind https', async ({
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const key = 'lsk_door2-test-key-0123456789abcdef';
  const password = 'open sesame, please';
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'loopscope-door2-')), 'data');
  const server = await spawnServer(
    {
      HOST: '0.0.0.0',
      LOOPSCOPE_DATA_DIR: dataDir,
      LOOPSCOPE_INIT_API_KEY: key,
      LOOPSCOPE_DASHBOARD_PASSWORD: password,
      LOOPSCOPE_PUBLIC_URL: 'https://loops.example.com',
    },
    freePort(),
  );
  const runs = async () => {
    const response = await fetch(`${server.url}/api/v1/runs`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return ((await response.json()) as { runs: unknown[] }).runs.length;
  };
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const setCookies: string[] = [];
    page.on('response', async (response) => {
      const cookie = await response.headerValue('set-cookie');
      if (cookie?.includes('loopscope_session=') && !cookie.includes('loopscope_session=;'))
        setCookies.push(cookie);
    });

    // next=/%09/host would leave the site in a browser: after login it stays on this origin.
    await page.goto(`${server.url}/login?next=${encodeURIComponent('/\t/evil.example/x')}`);
    await signedOutHeader(page, testInfo, 'login-signed-out');
    await page.getByLabel('Dashboard password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(new URL(page.url()).origin).toBe(server.url);
    await page.goto(`${server.url}/login?next=%2F%09%2Fevil.example%2Fx`);
    expect(new URL(page.url()).origin).toBe(server.url);
    expect(setCookies[0]).toMatch(/;\s*Secure/i);

    // The empty state's form carries the sample-loading action's id, as any visitor's HTML does.
    await page.goto(`${server.url}/`);
    const html = await page.content();
    const actionId = /name="\$ACTION_ID_([0-9a-f]+)"/.exec(html)?.[1];
    expect(actionId).toBeTruthy();
    const session = (await context.cookies()).find((c) => c.name === 'loopscope_session');
    expect(session).toBeTruthy();

    // Without a session, the action is refused whatever prefetch header comes with it.
    const prefetches: Record<string, string>[] = [
      { 'next-router-prefetch': '1', 'next-action': actionId ?? '' },
      { purpose: 'prefetch', 'next-action': actionId ?? '' },
    ];
    for (const headers of prefetches) {
      const form = new FormData();
      form.set(`$ACTION_ID_${actionId}`, '');
      form.set('project', 'default');
      const refused = await fetch(`${server.url}/`, {
        method: 'POST',
        headers: { ...headers, origin: server.url },
        body: form,
        redirect: 'manual',
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('content-security-policy')).toContain("script-src 'self' 'nonce-");
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(await runs()).toBe(0);

    // Logging out revokes the session on the server: a copy of the cookie opens nothing.
    await expect(page.getByRole('navigation')).toBeVisible();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login/);
    await signedOutHeader(page, testInfo, 'login-after-logout');
    const copied = await fetch(`${server.url}/`, {
      headers: { cookie: `loopscope_session=${session?.value}` },
      redirect: 'manual',
    });
    expect(copied.status).toBe(307);
    expect(copied.headers.get('location')).toContain('/login');

    // Guessing: after a few wrong passwords even the right one waits. Guess until the wait is
    // long enough (it doubles) that the right password surely comes within it on a slow machine.
    // Each guess waits for its own answer (the action's redirect) and the page it leads to: a
    // guess typed while the last one is still in flight races the router.
    const guess = async (text: string): Promise<URL> => {
      const field = page.getByLabel('Dashboard password');
      await field.fill(text, { timeout: 20_000 });
      const [answer] = await Promise.all([
        page.waitForResponse(
          (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/login',
        ),
        page.getByRole('button', { name: 'Log in' }).click(),
      ]);
      const location = answer.headers()['x-action-redirect']?.split(';')[0] ?? '';
      expect(location, `the action's answer ${answer.status()}`).toMatch(/^\/login\?/);
      const target = new URL(location, server.url);
      await page.waitForURL((url) => url.search === target.search);
      await expect(page.getByRole('alert').first()).toBeVisible();
      return target;
    };
    for (let k = 0; k < 40; k++) {
      const answered = await guess(`wrong guess ${k}`);
      if (Number(answered.searchParams.get('wait') ?? 0) >= 4) break;
      expect(k).toBeLessThan(39);
    }
    const last = await guess(password);
    expect(Number(last.searchParams.get('wait'))).toBeGreaterThan(0);
    await expect(
      page.getByRole('alert').filter({ hasText: 'Too many wrong passwords' }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
    await context.close();
  } finally {
    await server.kill('SIGTERM');
  }
});

/**
 * Signed out, the header holds the name alone: no navigation, no "Log out" (at desktop and phone
 * width, light and dark).
 */
async function signedOutHeader(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  for (const [width, scheme] of [
    [1280, 'light'],
    [390, 'dark'],
  ] as const) {
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.getByRole('heading', { name: 'Log in to Loopscope' })).toBeVisible();
    await expect(page.getByRole('navigation')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Log out' })).toHaveCount(0);
    await keepScreen(page, testInfo, `${name}-${width}-${scheme}`);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: 'light' });
}
