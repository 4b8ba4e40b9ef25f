import { test as base } from '@playwright/test';
import { createSender } from './otel';
import type { Sender } from './otel';

/** The e2e server's URL and key, and a real OTel sender pointed at it. */
export const test = base.extend<{ server: { url: string; key: string }; sender: Sender }>({
  server: async ({ baseURL }, use) => {
    await use({ url: baseURL ?? '', key: process.env.LOOPSCOPE_E2E_KEY ?? '' });
  },
  sender: async ({ server }, use) => {
    const sender = createSender({
      url: server.url,
      key: server.key,
      protocol: 'proto',
      gzip: true,
    });
    await use(sender);
    await sender.shutdown();
  },
});

export { expect } from '@playwright/test';
