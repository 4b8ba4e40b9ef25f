// A tool span may lack what the model call that asked for it recorded: Google ADK exports a failed
// tool with no arguments, Traceloop names a tool that threw only by its LangChain class. The call
// the model asked for (by call id, else by equal arguments) completes it. A tool call whose
// arguments are still unknown keeps no action hash: missing arguments are not equal arguments.
import { canonicalActionHash } from '../trajectory/canonical-hash';
import type { RequestedCall, SpanFacts } from '../trajectory/span-facts';
import type { ErrorClass } from '../trajectory/step';
import type { StoredSpan } from './span-tree';

interface Asked {
  call: RequestedCall;
  startMs: number;
}

const argsKey = (args: string | undefined) => canonicalActionHash('', args ?? null);

/**
 * The run's tool call requests and reported failures, and its tool spans completed from them;
 * spans can be added later (a long run streaming), when that completes no span held otherwise.
 */
export class ToolCallRequests {
  /** By start time. */
  private readonly asked: Asked[] = [];
  private readonly byId = new Map<string, RequestedCall>();
  private readonly failed = new Map<string, ErrorClass>();
  /** The latest start of a span held. */
  private latestStart = -Infinity;
  /** Call ids that held tool spans left to complete name, or that their completions used. */
  private readonly heldIds = new Set<string>();

  /**
   * Takes in spans and returns them, completed: all at once, or, once some are held, spans that
   * start after all of them and whose requests and failures leave every held one as it was (else
   * null, and nothing changes).
   */
  add(spans: readonly StoredSpan[]): StoredSpan[] | null {
    const asked: Asked[] = [];
    for (const s of spans) {
      for (const call of s.facts.requestedCalls ?? []) asked.push({ call, startMs: s.startMs });
    }
    asked.sort((a, b) => a.startMs - b.startMs);
    const failures = spans.flatMap((s) => s.facts.reportedFailures ?? []);
    const changesHeld =
      asked.some((a) => a.startMs <= this.latestStart || this.heldsId(a.call.id)) ||
      failures.some(({ id, errorClass }) => {
        const before = this.failed.get(id);
        return this.heldIds.has(id) || (before !== undefined && before !== errorClass);
      });
    if (changesHeld) return null;
    for (const a of asked) {
      this.asked.push(a);
      if (a.call.id !== undefined) this.byId.set(a.call.id, a.call);
    }
    for (const { id, errorClass } of failures) this.failed.set(id, errorClass);
    for (const s of spans) this.latestStart = Math.max(this.latestStart, s.startMs);
    return spans.map((span) => this.complete(span));
  }

  private heldsId(id: string | undefined): boolean {
    return id !== undefined && this.heldIds.has(id);
  }

  private complete(span: StoredSpan): StoredSpan {
    const f = span.facts;
    if (f.role !== 'tool' || (f.action !== undefined && f.actionArgs !== undefined)) return span;
    for (const id of f.toolCallIds ?? []) this.heldIds.add(id);
    if (this.asked.length === 0) return span;
    const call = findRequest(span, this.asked, this.byId);
    if (!call) return span;
    const facts: SpanFacts = { ...f };
    if (call.id !== undefined) {
      this.heldIds.add(call.id);
      facts.toolCallIds ??= [call.id];
      facts.errorClass ??= this.failed.get(call.id);
      if (facts.errorClass === undefined) delete facts.errorClass;
    }
    facts.action ??= call.name;
    if (facts.actionArgs === undefined && call.args !== undefined) facts.actionArgs = call.args;
    if (f.actionHash === undefined && facts.actionArgs !== undefined) {
      facts.actionHash = canonicalActionHash(facts.action, facts.actionArgs);
    }
    return { ...span, facts };
  }
}

function findRequest(
  span: StoredSpan,
  asked: readonly Asked[],
  byId: ReadonlyMap<string, RequestedCall>,
): RequestedCall | null {
  const f = span.facts;
  for (const id of f.toolCallIds ?? []) {
    const call = byId.get(id);
    if (call && (f.action === undefined || call.name === f.action)) return call;
  }
  // No call id: the latest request before the tool started with the same name or arguments.
  const wantArgs = f.actionArgs === undefined ? null : argsKey(f.actionArgs);
  for (let k = asked.length - 1; k >= 0; k--) {
    const entry = asked[k];
    if (!entry || entry.startMs > span.startMs) continue;
    const { call } = entry;
    if (f.action !== undefined && call.name !== f.action) continue;
    if (wantArgs !== null && argsKey(call.args) !== wantArgs) continue;
    if (f.action === undefined && wantArgs === null) continue;
    return call;
  }
  return null;
}
