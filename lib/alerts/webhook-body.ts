// What a fired rule posts (docs/api.md "Alerts"): the JSON event, or a Slack message whose text
// is escaped so that agent names, run ids and goals from spans cannot break it or ping anyone.
import { createHmac } from 'node:crypto';
import type { RunSummary } from '../api-types';

export interface AlertEventBody {
  id: string;
  rule: { id: string; name: string };
  firedAt: string;
  runId: string | null;
  summary: string;
  run?: RunSummary;
  link: string;
}

/** Slack's three control characters (`&`, `<`, `>`), which make links and mentions. */
export function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function webhookBody(format: 'json' | 'slack', event: AlertEventBody): string {
  if (format === 'json') return JSON.stringify(event);
  const text = `${escapeSlack(event.summary)}\n<${escapeSlack(event.link)}|Open in Loopscope>`;
  return JSON.stringify({ text });
}

/** `X-Loopscope-Signature`: the hex HMAC-SHA256 of the exact body bytes. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/**
 * The Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`): the
 * signature covers the event id and the time of the attempt with the body, so a captured request
 * stops verifying once the receiver's tolerance (5 minutes in that scheme's libraries) has
 * passed. Its key is the secret's UTF-8 bytes: a Standard Webhooks library takes it as
 * `whsec_` followed by the secret in base64.
 */
export function timestampedSignature(
  secret: string,
  eventId: string,
  body: string,
  nowMs = Date.now(),
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  const timestamp = String(Math.floor(nowMs / 1000));
  const signature = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${eventId}.${timestamp}.${body}`, 'utf8')
    .digest('base64');
  return {
    'webhook-id': eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
  };
}
