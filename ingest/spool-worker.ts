// The spool's workers: each takes, project by project in turn, the oldest waiting requests no
// other transaction holds, stores their spans and deletes them in one transaction. A crash before the commit leaves the rows for
// the next pass (of this process after restart, or of another server on the same database); a
// crash after it has the spans stored and the rows gone: none lost, none stored twice (spans are
// idempotent by key besides).
import type { Database } from '../db/client';
import { describeError, isDatabaseUnavailable, withConflictRetry } from '../db/errors';
import {
  claimSpooled,
  countSpooledOf,
  deleteSpooled,
  lastSpooledIdOf,
  spoolScopeOfRun,
  recordSpoolFailure,
  spooledBody,
} from '../db/write/ingest-spool';
import type { SpoolScope } from '../db/write/ingest-spool';
import { linkTraces, storeSpanRows } from './ingest-spans';
import { decodeOtlpBody, inflate } from './read-body';
import type { IngestSpool } from './spool';
import { validateSpans } from './validate';

export interface SpoolWorkerOptions {
  /** The database the workers write through (on Postgres, a pool of their own). */
  db: () => Database | null;
  spool: IngestSpool;
  /** Workers at once. */
  workers: number;
  /**
   * Requests per transaction. On PGlite (one connection) keep it 1: the door's insert waits for
   * the transaction that is open, so a large one would hold every 200 behind it.
   */
  batch: number;
  /**
   * Whose requests wait in the spool for now, their runs' derivation being too far behind
   * (everyone's, or some projects'): the spool, bounded, takes the burst instead of the door
   * refusing it, and a run streaming many requests is derived once for all of them.
   */
  heldBack?: () => HeldBack;
  /** After a commit (the deriver's cue). */
  onStored?: () => void;
  onError?: (message: string) => void;
}

export interface HeldBack {
  everyone: boolean;
  projects: readonly string[];
}

interface Pass {
  expanded: number;
  holding: boolean;
}

export class SpoolWorkers {
  private running = false;
  private loops: Promise<void>[] = [];
  private timer: NodeJS.Timeout | null = null;
  private wake: (() => void)[] = [];
  // Workers holding back wait for the poll, or for a put of a project not held back: a put of a
  // held-back project would wake them for nothing.
  private polled: (() => void)[] = [];
  private passes = 0;
  // The project the last claim ended on: the next one starts after it (claimSpooled's `after`).
  private turn: string | null = null;
  private lastReport = { message: '', at: 0 };

  constructor(private readonly options: SpoolWorkerOptions) {}

  start(pollMs = 500): void {
    if (this.running) return;
    this.running = true;
    for (let k = 0; k < this.options.workers; k++) this.loops.push(this.loop());
    // Rows put by another server, or left by a crash, are found by the poll.
    this.timer = setInterval(() => {
      this.kick();
      this.resume(this.polled);
      this.polled = [];
    }, pollMs);
    this.timer.unref();
  }

  /** Stops taking rows; resolves when the transactions in flight are over. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.kick();
    this.resume(this.polled);
    this.polled = [];
    await Promise.all(this.loops);
    this.loops = [];
  }

  /** Wakes resting workers; with the project just put, those holding back too, unless it is. */
  kick(projectId?: string): void {
    const waiting = this.wake;
    this.wake = [];
    this.resume(waiting);
    if (projectId === undefined || this.polled.length === 0) return;
    if (this.holdsBack(projectId)) return;
    const polled = this.polled;
    this.polled = [];
    this.resume(polled);
  }

  private holdsBack(projectId: string): boolean {
    const held = this.options.heldBack?.() ?? { everyone: false, projects: [] };
    return held.everyone || held.projects.includes(projectId);
  }

  private resume(waiting: readonly (() => void)[]): void {
    for (const resume of waiting) resume();
  }

  /** Resolves once the spool is empty (as this process counts it) and the workers rest. */
  async drained(timeoutMs = 60_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const db = this.options.db();
      const backlog = await this.options.spool.recount(db ?? undefined);
      if (backlog.requests - backlog.stuck === 0) return;
      if (Date.now() > until) throw new Error(`the spool still holds ${backlog.requests} requests`);
      this.kick();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /**
   * Stores a project's spooled requests now, when there are at most `upTo` (a read about to
   * answer includes every acknowledged span); false when more wait, and the read is behind.
   */
  catchUp(
    projectId: string,
    options: { db?: Database; upTo?: number; runId?: string } = {},
  ): Promise<boolean> {
    return this.storedUpToNow(projectId, { ...options, timeoutMs: 0 });
  }

  /**
   * Waits until every request of the project spooled before this call is stored, at most
   * `timeoutMs`, storing them itself once few are left (as `catchUp`), or all of them while the
   * workers hold the project back (they would not take them before the deadline); false when
   * some still wait. For an answer that must reflect what the caller just exported (the guard).
   * With `runId`, only the requests that may hold the run's traces (db/write/ingest-spool.ts
   * `spoolScopeOfRun`): a read of one run does not wait behind its neighbours' backlog.
   */
  async storedUpToNow(
    projectId: string,
    options: { db?: Database; upTo?: number; timeoutMs: number; runId?: string },
  ): Promise<boolean> {
    // The reader's own database handle: the workers' pool may be busy with their transactions.
    const db = options.db ?? this.options.db();
    if (!db) return false;
    // Of a run, again at each turn: a request stored meanwhile may have mapped a trace to it
    // whose other requests still wait.
    const scopeNow = async (): Promise<SpoolScope> =>
      options.runId === undefined ? { projectId } : spoolScopeOfRun(db, projectId, options.runId);
    const last = await lastSpooledIdOf(db, await scopeNow());
    if (last === null) return true;
    const until = Date.now() + options.timeoutMs;
    for (;;) {
      const scope = await scopeNow();
      const waiting = await countSpooledOf(db, scope, last);
      if (waiting === 0) return true;
      // Few left, or none the workers would take: store them here, a batch at a time (rows a
      // worker holds are skipped, and counted until it commits).
      const mine =
        waiting <= (options.upTo ?? 32) || (options.timeoutMs > 0 && this.holdsBack(projectId));
      const stored = mine ? await this.expand(db, scope) : 0;
      if (stored > 0) {
        this.options.onStored?.();
        continue;
      }
      if (Date.now() >= until) return false;
      this.kick();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  private async loop(): Promise<void> {
    while (this.running) {
      let pass: Pass = { expanded: 0, holding: false };
      try {
        pass = await this.pass();
      } catch (error) {
        this.report(`expanding spooled requests failed: ${describeError(error)}`);
      }
      if (pass.expanded > 0 || !this.running) continue;
      await new Promise<void>((resolve) => (pass.holding ? this.polled : this.wake).push(resolve));
    }
  }

  // While the database is away every pass fails alike: one line per distinct error a minute.
  private report(message: string): void {
    const now = Date.now();
    if (message === this.lastReport.message && now - this.lastReport.at < 60_000) return;
    this.lastReport = { message, at: now };
    this.options.onError?.(message);
  }

  /** One pass of a worker: the requests it expanded, and whether it left some held back. */
  private async pass(): Promise<Pass> {
    const db = this.options.db();
    if (!db) return { expanded: 0, holding: false };
    // The count the door's bound reads: every few passes, and whenever the spool looks empty.
    if (this.passes++ % 16 === 0) await this.options.spool.recount(db);
    const held = this.options.heldBack?.() ?? { everyone: false, projects: [] };
    if (held.everyone) return { expanded: 0, holding: true };
    const expanded = await this.expand(db, null, held.projects);
    if (expanded > 0) this.options.onStored?.();
    else await this.options.spool.recount(db);
    return { expanded, holding: held.projects.length > 0 };
  }

  /** One transaction: claim (a project's rows only, for `catchUp`), store, delete. */
  private async expand(
    db: Database,
    of: SpoolScope | null,
    except: readonly string[] = [],
  ): Promise<number> {
    const at: { id: number | null } = { id: null };
    const started = Date.now();
    const spool = this.options.spool;
    let claimedIds: number[] = [];
    try {
      const expanded = await withConflictRetry(() =>
        db.transaction(async (tx) => {
          const claimed = await claimSpooled(tx, this.options.batch, {
            of,
            held: spool.heldIds(),
            except,
            after: this.turn,
          });
          claimedIds = claimed.map((r) => r.id);
          if (!of) this.turn = claimed.at(-1)?.projectId ?? null;
          // Every request's spans first, then each project's traces mapped and runs marked once.
          const traces = new Map<string, Map<string, string | null>>();
          for (const request of claimed) {
            at.id = request.id;
            // What the door validated, when this process spooled it; else the body, decoded again.
            let spans = spool.heldSpans(request.id);
            if (!spans) {
              const sent = request.body ?? (await spooledBody(tx, request.id));
              const body = request.gzipped ? await inflate(sent, request.bytes) : sent;
              spans = validateSpans(decodeOtlpBody(request.format, body)).spans;
            }
            const ofProject = traces.get(request.projectId) ?? new Map<string, string | null>();
            traces.set(request.projectId, ofProject);
            await storeSpanRows(tx, request.projectId, spans, ofProject);
          }
          for (const [projectId, ofProject] of traces) {
            // Counted against the project's last request, should it fail.
            at.id = claimed.findLast((r) => r.projectId === projectId)!.id;
            await linkTraces(tx, projectId, ofProject);
          }
          at.id = null;
          await deleteSpooled(tx, claimedIds);
          return claimed.length;
        }),
      );
      spool.release(claimedIds);
      if (expanded > 0) spool.noteDrained(expanded, Date.now() - started);
      return expanded;
    } catch (error) {
      const current = at.id;
      if (isDatabaseUnavailable(error) || current === null) throw error;
      // This request cannot be stored as it is: counted against it, so it stops blocking the
      // rest after a few tries and stays for an operator (health reports it as stuck). Its
      // decoded spans go: a later try decodes the body it was spooled with.
      spool.release([current]);
      await recordSpoolFailure(db, current, describeError(error));
      this.options.onError?.(
        `a spooled request (${current}) could not be stored: ${describeError(error)}`,
      );
      return 1;
    }
  }
}
