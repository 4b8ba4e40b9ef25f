// The sender: a loop in the server process that claims due outbox rows (db/write/alert-outbox.ts)
// and posts them (server/webhook-post.ts: never inward unless the operator allows it, never to
// this server). Each attempt has a timeout and follows no redirect; a non-2xx answer or an
// error is retried with exponential backoff and jitter up to the attempt limit, then the event is
// failed with its last error. Every attempt is logged in alert_deliveries. The event id travels
// in X-Loopscope-Event on every attempt, so a receiver can drop the duplicates that at-least-once
// delivery allows (a process that dies mid-request cannot know whether the POST arrived).
import type { Database } from '../db/client';
import { describeError } from '../db/errors';
import { getRun } from '../db/read/get-run';
import { claimDueEvents, recordAttempt, releaseClaim } from '../db/write/alert-outbox';
import type { AttemptOutcome, ClaimedEvent } from '../db/write/alert-outbox';
import { openSecret } from '../lib/alerts/secret-box';
import { signBody, timestampedSignature, webhookBody } from '../lib/alerts/webhook-body';
import type { AlertEventBody } from '../lib/alerts/webhook-body';
import { toRunSummaryJson } from '../lib/run-json';
import type { AlertConfig } from './config';
import { RepeatingPass } from '../lib/repeating-pass';
import type { OwnListeners } from '../lib/alerts/webhook-address';
import { postWebhook, WebhookRefused } from './webhook-post';

const BATCH = 16;
// Deliveries under way at once, over every destination, and to one destination (a host and
// port): a receiver that hangs holds its own share, the others go on.
const MAX_IN_FLIGHT = 32;
const PER_DESTINATION = 4;
// This many failures in a row to one destination open its circuit for CIRCUIT_DELAYS first-retry
// delays (30 s by default): its events wait untried instead of each spending a timeout.
const CIRCUIT_FAILURES = 5;
const CIRCUIT_DELAYS = 6;

// An event whose secret this server cannot open waits this long for one that can, looked at
// again after this many first-retry delays (150 s by default), then fails with the reason.
const FOREIGN_KEY_GRACE_MS = 3600_000;
const FOREIGN_KEY_RETRY_ATTEMPT_DELAYS = 30;
const FOREIGN_KEY_ERROR =
  "the rule's secret was sealed under an alert key no server here holds (LOOPSCOPE_ALERT_KEY): give every server on this database the same key";
const MAX_DELAY_MS = 3600_000;

interface Destination {
  active: number;
  failures: number;
  openUntil: number;
}

/** Where a webhook goes, as its connections see it: scheme, host and port (never the path). */
function destinationOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return url;
  }
}

export interface AlertSenderDeps {
  db: () => Database | null;
  key: Buffer;
  config: AlertConfig;
  /** Where links point: LOOPSCOPE_PUBLIC_URL, else the address the server listens on. */
  linkBase: () => string;
  /** This server's own listeners, which no webhook may reach. */
  own: () => OwnListeners;
  log: (message: string) => void;
}

export class AlertSender extends RepeatingPass {
  constructor(private readonly deps: AlertSenderDeps) {
    super();
  }

  /** Deliveries under way: a pass does not wait for them, so one slow receiver holds no one. */
  private readonly inFlight = new Set<Promise<void>>();
  private readonly destinations = new Map<string, Destination>();

  protected async pass(): Promise<void> {
    // The lease outlasts the attempt's timeout: while a POST may still be in flight, no other
    // pass (nor process) takes the event.
    const leaseMs = 2 * this.deps.config.timeoutMs + 5000;
    try {
      for (;;) {
        const db = this.deps.db();
        if (!db || !this.started) return;
        const room = MAX_IN_FLIGHT - this.inFlight.size;
        if (room <= 0) return; // each delivery that ends kicks another pass
        const claimed = await claimDueEvents(db, Math.min(BATCH, room), leaseMs);
        if (claimed.length === 0) return;
        let started = 0;
        for (const event of claimed) {
          if (await this.startOrLeave(db, event)) started++;
        }
        // Every one claimed waits for its destination: the next pass is the timer's or a kick's.
        if (started === 0) return;
      }
    } catch (error) {
      this.deps.log(`sending alerts failed: ${describeError(error)}`);
    }
  }

  override async idle(): Promise<void> {
    await super.idle();
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Starts the delivery, or gives the claim back untried when its destination already has its
   * share of deliveries under way or its circuit is open (it failed again and again): a hanging
   * receiver holds only its own events back, never another project's.
   */
  private async startOrLeave(db: Database, event: ClaimedEvent): Promise<boolean> {
    const key = destinationOf(event.webhook_url);
    const destination = this.destinations.get(key) ?? { active: 0, failures: 0, openUntil: 0 };
    this.destinations.set(key, destination);
    const now = Date.now();
    const waitMs =
      destination.openUntil > now
        ? destination.openUntil - now
        : destination.active >= PER_DESTINATION
          ? this.deps.config.baseDelayMs
          : 0;
    if (waitMs > 0) {
      const claim = { projectId: event.project_id, id: event.id, attempt: event.attempts };
      await releaseClaim(db, claim, waitMs);
      return false;
    }
    destination.active++;
    const delivery = this.deliver(db, event)
      .then(
        (delivered) => {
          destination.failures = delivered === false ? destination.failures + 1 : 0;
          if (destination.failures >= CIRCUIT_FAILURES) {
            destination.openUntil = Date.now() + CIRCUIT_DELAYS * this.deps.config.baseDelayMs;
            destination.failures = 0;
          }
        },
        (error: unknown) => this.deps.log(`sending an alert failed: ${describeError(error)}`),
      )
      .finally(() => {
        destination.active--;
        if (
          destination.active === 0 &&
          destination.failures === 0 &&
          destination.openUntil <= Date.now()
        )
          this.destinations.delete(key);
        this.inFlight.delete(delivery);
        this.kick();
      });
    this.inFlight.add(delivery);
    return true;
  }

  /** Whether the receiver took it; null when it was not tried (left for another server). */
  private async deliver(db: Database, event: ClaimedEvent): Promise<boolean | null> {
    const { config } = this.deps;
    const attempt = event.attempts;
    const result = await this.post(db, event);
    if (result === 'not_mine') {
      // Sealed under another alert key: another server on this database may hold it. Left to
      // them, untried, until it has waited long enough that none does.
      const waitedMs = Date.now() - new Date(event.fired_at).getTime();
      if (waitedMs < FOREIGN_KEY_GRACE_MS) {
        this.deps.log(
          `alert event ${event.id} (rule ${event.rule_id}): its secret is sealed under another alert key (LOOPSCOPE_ALERT_KEY); left for a server that holds it`,
        );
        await releaseClaim(
          db,
          { projectId: event.project_id, id: event.id, attempt },
          FOREIGN_KEY_RETRY_ATTEMPT_DELAYS * config.baseDelayMs * (0.5 + Math.random()),
        );
        return null;
      }
      await recordAttempt(
        db,
        { projectId: event.project_id, id: event.id, attempt },
        { httpStatus: null, error: FOREIGN_KEY_ERROR, next: { status: 'failed' } },
      );
      return null;
    }
    const delivered = result.error === null;
    let next: AttemptOutcome['next'];
    if (delivered) next = { status: 'delivered' };
    else if (result.final || attempt >= config.maxAttempts) next = { status: 'failed' };
    else next = { status: 'retry', atMs: Date.now() + retryDelayMs(config.baseDelayMs, attempt) };
    await recordAttempt(
      db,
      { projectId: event.project_id, id: event.id, attempt },
      { httpStatus: result.httpStatus, error: result.error, next },
    );
    if (!delivered) {
      // Never the URL (a Slack webhook's path is its credential) nor the secret.
      this.deps.log(
        `alert event ${event.id} (rule ${event.rule_id}), attempt ${attempt}: ${result.error}${
          next.status === 'failed' ? '; marked failed' : ''
        }`,
      );
    }
    // A destination refused for its address is no receiver failing: it has no circuit to open.
    if (delivered) return true;
    return result.final === true ? null : false;
  }

  private async post(
    db: Database,
    event: ClaimedEvent,
  ): Promise<{ httpStatus: number | null; error: string | null; final?: boolean } | 'not_mine'> {
    const { config, key } = this.deps;
    const url = new URL(event.webhook_url);
    let secret: string | null = null;
    if (event.secret_sealed !== null) {
      secret = openSecret(key, event.secret_sealed);
      if (secret === null) return 'not_mine';
    }
    const body = webhookBody(
      event.webhook_format === 'slack' ? 'slack' : 'json',
      await this.eventBody(db, event),
    );
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Loopscope-Alerts/1',
      'x-loopscope-event': event.id,
    };
    if (secret !== null) {
      headers['x-loopscope-signature'] = signBody(secret, body);
      Object.assign(headers, timestampedSignature(secret, event.id, body));
    }
    try {
      const response = await postWebhook(url, {
        headers,
        body,
        timeoutMs: config.timeoutMs,
        policy: { allow: config.webhookAllow, own: this.deps.own },
      });
      if (response.status >= 200 && response.status < 300) {
        return { httpStatus: response.status, error: null };
      }
      const error =
        response.status >= 300 && response.status < 400
          ? `answered ${response.status}, a redirect, which is not followed`
          : `answered ${response.status}`;
      return { httpStatus: response.status, error };
    } catch (error) {
      if (error instanceof WebhookRefused) {
        return { httpStatus: null, error: error.message, final: true };
      }
      return { httpStatus: null, error: requestError(error, config.timeoutMs) };
    }
  }

  private async eventBody(db: Database, event: ClaimedEvent): Promise<AlertEventBody> {
    const base = this.deps.linkBase().replace(/\/+$/, '');
    const project = `project=${encodeURIComponent(event.project_name)}`;
    const detail = (event.detail ?? {}) as { from?: string; to?: string };
    let link = `${base}/?${project}`;
    if (event.run_id !== null) {
      link = `${base}/runs/${encodeURIComponent(event.run_id)}?${project}`;
    } else if (detail.from && detail.to) {
      link += `&from=${encodeURIComponent(detail.from)}&to=${encodeURIComponent(detail.to)}`;
    }
    const run =
      event.run_id === null
        ? null
        : await getRun(db, { projectId: event.project_id, runId: event.run_id });
    return {
      id: event.id,
      rule: { id: event.rule_id, name: event.rule_name },
      firedAt: event.fired_at,
      runId: event.run_id,
      summary: event.summary,
      ...(run ? { run: toRunSummaryJson(run) } : {}),
      link,
    };
  }
}

/** Exponential backoff with equal jitter: half the doubled delay, plus up to as much again. */
export function retryDelayMs(baseMs: number, attempt: number, random = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

function requestError(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `no answer within ${timeoutMs} ms`;
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code) return `could not connect (${code})`;
  return `request failed: ${(error as Error).message}`;
}
