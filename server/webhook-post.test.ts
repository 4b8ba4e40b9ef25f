// A webhook's destination is judged at the connection: what the name resolves to, in any spelling,
// never this server, and inward only where the operator allowed the host.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../e2e/support/webhook-receiver';
import type { Receiver } from '../e2e/support/webhook-receiver';
import { isInwardAddress } from '../lib/alerts/webhook-address';
import { postWebhook, WebhookRefused } from './webhook-post';
import type { WebhookPolicy } from './webhook-post';

const post = (url: string, policy: WebhookPolicy) =>
  postWebhook(new URL(url), {
    headers: { 'content-type': 'application/json' },
    body: '{"ok":true}',
    timeoutMs: 2000,
    policy,
  });

const nobody = { ports: [], publicHost: null };

describe('postWebhook', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('reaches no loopback spelling, private, link-local or reserved address by default', async () => {
    const port = receiver.port;
    const spellings = [
      `http://127.0.0.1:${port}/`,
      `http://127.1:${port}/`,
      `http://127.0.1.3:${port}/`,
      `http://0x7f000001:${port}/`,
      `http://2130706433:${port}/`,
      `http://0177.0.0.1:${port}/`,
      `http://localhost:${port}/`,
      `http://LOCALHOST.:${port}/`,
      `http://[::1]:${port}/`,
      `http://[0:0:0:0:0:0:0:1]:${port}/`,
      `http://[::ffff:127.0.0.1]:${port}/`,
      `http://[::ffff:7f00:1]:${port}/`,
      `http://0.0.0.0:${port}/`,
      `http://0:${port}/`,
      `http://[::]:${port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://10.0.0.1/',
      'http://172.16.5.4/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://[fd12:3456::1]/',
      'http://[64:ff9b::a00:1]/',
    ];
    for (const url of spellings) {
      const refused = await post(url, { allow: null, own: () => nobody }).catch(
        (error: unknown) => error,
      );
      // Refused for its address, or (a name no resolver knows) never resolved: never sent.
      expect(refused, url).toBeInstanceOf(Error);
      if (!url.includes('LOCALHOST.')) expect(refused, url).toBeInstanceOf(WebhookRefused);
    }
    expect(receiver.received).toHaveLength(0);
  });

  it('posts to a loopback receiver the operator named in the allow list', async () => {
    const answer = await post(`http://localhost:${receiver.port}/hook`, {
      allow: ['localhost'],
      own: () => nobody,
    });
    expect(answer.status).toBe(200);
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.body).toBe('{"ok":true}');
  });

  it('never reaches this server, however it is allowed or spelled', async () => {
    const own = () => ({ ports: [receiver.port], publicHost: null });
    const before = receiver.received.length;
    for (const url of [
      `http://localhost:${receiver.port}/api/ui/demo`,
      `http://127.0.0.1:${receiver.port}/api/ui/demo`,
      `http://[::ffff:7f00:1]:${receiver.port}/api/ui/demo`,
    ]) {
      const allow = [new URL(url).hostname.replace(/^\[|\]$/g, '')];
      await expect(post(url, { allow, own }), url).rejects.toThrow(
        /reaches this Loopscope server itself/,
      );
    }
    // Through the public address a proxy gives it, too.
    await expect(
      post('https://loops.example.com/api/ui/demo', {
        allow: null,
        own: () => ({ ports: [], publicHost: 'loops.example.com' }),
      }),
    ).rejects.toThrow(/public address/);
    expect(receiver.received).toHaveLength(before);
  });

  it('tells public addresses, mapped ones too, from inward ones', () => {
    expect(isInwardAddress('::ffff:a9fe:a9fe')).toBe(true); // 169.254.169.254
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(isInwardAddress(address), address).toBe(false);
    }
  });
});
