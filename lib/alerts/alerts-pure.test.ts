import { describe, expect, it } from 'vitest';
import { retryDelayMs } from '../../server/alert-sender';
import { newAlertKey, openSecret, parseAlertKey, sealSecret } from './secret-box';
import { hostAllowed, parseWebhookAllow } from './webhook-allow';
import { escapeSlack, signBody, webhookBody } from './webhook-body';

describe('LOOPSCOPE_WEBHOOK_ALLOW', () => {
  it('takes exact names and *. wildcards below a name, ignoring case, spaces and a final dot', () => {
    const allow = parseWebhookAllow(' Hooks.Slack.com, *.example.com ,');
    expect(allow).toEqual(['hooks.slack.com', '*.example.com']);
    expect(hostAllowed('hooks.slack.com', allow)).toBe(true);
    expect(hostAllowed('HOOKS.SLACK.COM.', allow)).toBe(true);
    expect(hostAllowed('a.b.example.com', allow)).toBe(true);
    expect(hostAllowed('example.com', allow)).toBe(false);
    expect(hostAllowed('evilexample.com', allow)).toBe(false);
    expect(hostAllowed('slack.com', allow)).toBe(false);
    expect(hostAllowed('anything', parseWebhookAllow(''))).toBe(true);
    expect(parseWebhookAllow(undefined)).toBeNull();
  });
});

describe('webhook secrets at rest', () => {
  it('open under the key they were sealed with, and under no other', () => {
    const key = newAlertKey();
    const sealed = sealSecret(key, 'the secret');
    expect(sealed).not.toContain('the secret');
    expect(sealSecret(key, 'the secret')).not.toBe(sealed);
    expect(openSecret(key, sealed)).toBe('the secret');
    expect(openSecret(newAlertKey(), sealed)).toBeNull();
    expect(openSecret(key, `${sealed.slice(0, -2)}AA`)).toBeNull();
    expect(openSecret(key, 'garbage')).toBeNull();
    expect(parseAlertKey(key.toString('hex'))).toEqual(key);
    expect(parseAlertKey(key.toString('base64url'))).toEqual(key);
    expect(parseAlertKey('abcd')).toBeNull();
  });
});

describe('webhook bodies', () => {
  const event = {
    id: 'e1',
    rule: { id: 'r1', name: 'loops' },
    firedAt: '2026-12-01T00:00:00.000Z',
    runId: 'run <1>',
    summary: 'loops: run <@U123> & <!channel> looped',
    link: 'http://127.0.0.1:3000/runs/run%20%3C1%3E?project=default',
  };

  it('escapes what Slack reads as links and mentions, keeping its own link', () => {
    expect(escapeSlack('<!here> & <@U1>')).toBe('&lt;!here&gt; &amp; &lt;@U1&gt;');
    const { text } = JSON.parse(webhookBody('slack', event)) as { text: string };
    expect(text).toBe(
      'loops: run &lt;@U123&gt; &amp; &lt;!channel&gt; looped\n' +
        '<http://127.0.0.1:3000/runs/run%20%3C1%3E?project=default|Open in Loopscope>',
    );
  });

  it('the JSON body is the event as it is; the signature is the HMAC of those bytes', () => {
    const body = webhookBody('json', event);
    expect(JSON.parse(body)).toEqual(event);
    expect(signBody('k', body)).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(signBody('k', body)).not.toBe(signBody('k', `${body} `));
  });
});

describe('retry delays', () => {
  it('double each attempt with up to half of it as jitter, and stop growing at an hour', () => {
    expect(retryDelayMs(1000, 1, () => 0)).toBe(500);
    expect(retryDelayMs(1000, 1, () => 1)).toBe(1000);
    expect(retryDelayMs(1000, 3, () => 0)).toBe(2000);
    expect(retryDelayMs(1000, 3, () => 1)).toBe(4000);
    expect(retryDelayMs(1000, 40, () => 1)).toBe(3600_000);
  });
});
