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

export function completeToolCalls(spans: readonly StoredSpan[]): StoredSpan[] {
  const asked: Asked[] = spans
    .flatMap((s) => (s.facts.requestedCalls ?? []).map((call) => ({ call, startMs: s.startMs })))
    .sort((a, b) => a.startMs - b.startMs);
  if (asked.length === 0) return [...spans];
  const byId = new Map<string, RequestedCall>();
  for (const { call } of asked) if (call.id !== undefined) byId.set(call.id, call);

  const failed = new Map<string, ErrorClass>();
  for (const s of spans)
    for (const { id, errorClass } of s.facts.reportedFailures ?? []) failed.set(id, errorClass);

  return spans.map((span) => {
    const f = span.facts;
    if (f.role !== 'tool' || (f.action !== undefined && f.actionArgs !== undefined)) return span;
    const call = findRequest(span, asked, byId);
    if (!call) return span;
    const facts: SpanFacts = { ...f };
    if (call.id !== undefined) {
      facts.toolCallIds ??= [call.id];
      facts.errorClass ??= failed.get(call.id);
      if (facts.errorClass === undefined) delete facts.errorClass;
    }
    facts.action ??= call.name;
    if (facts.actionArgs === undefined && call.args !== undefined) facts.actionArgs = call.args;
    if (f.actionHash === undefined && facts.actionArgs !== undefined) {
      facts.actionHash = canonicalActionHash(facts.action, facts.actionArgs);
    }
    return { ...span, facts };
  });
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
