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
