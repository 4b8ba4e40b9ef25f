import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// The built server on a fresh PGlite folder (or DATABASE_URL when set), fed through /v1/traces.
// Workers inherit these from the main process, so every one talks to the same server.
process.env.LOOPSCOPE_E2E_DIR ??= mkdtempSync(path.join(tmpdir(), 'loopscope-e2e-'));
process.env.LOOPSCOPE_E2E_PORT ??= String(3100 + Math.floor(Math.random() * 800));
process.env.LOOPSCOPE_E2E_KEY ??= 'lsk_e2e-test-key-0123456789abcdef';
const port = process.env.LOOPSCOPE_E2E_PORT;

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: 'on',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'node bin/loopscope.mjs start',
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: port,
      HOST: '127.0.0.1',
      // Tests that need OTLP/gRPC start their own server on a free port.
      LOOPSCOPE_GRPC_PORT: 'off',
      // Their runs are dated anywhere in time: no retention sweep unless a test asks for one.
      LOOPSCOPE_RETENTION_SWEEP_MINUTES: '0',
      LOOPSCOPE_DATA_DIR: path.join(process.env.LOOPSCOPE_E2E_DIR, 'data'),
      LOOPSCOPE_INIT_API_KEY: process.env.LOOPSCOPE_E2E_KEY,
      // The alert tests' receivers listen on loopback, which webhooks reach only when allowed.
      LOOPSCOPE_WEBHOOK_ALLOW: '127.0.0.1,localhost',
    },
  },
});
