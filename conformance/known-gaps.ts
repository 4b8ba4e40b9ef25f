// Fields of the conformance captures that Loopscope reads wrong today. replay-suite.ts asserts that
// each entry still mismatches (a fix makes the suite fail until its entry is removed here) and that
// every field not listed matches the capture's truth. Each `why` says where in the spans the truth
// lies, for the engineer who fixes the reading (ingest/, trajectory/). The table is in
// conformance/README.md too.

export interface KnownGap {
  /** `<framework>/<scenario>` */
  capture: string;
  /** the expected run's key, as in capture.json (`*` for a capture-wide check such as fragments) */
  run: string;
  field: string;
  /** what the read API gives today */
  readsToday: unknown;
  /** why, and where the truth lies in the spans */
  why: string;
}

const TRACELOOP_CONCURRENT_PARENTS =
  "Not fixable by reading: with three graphs running at once, Traceloop's LangChain handler parents the spans of all three under the first app span (trace of `invoke_agent auditor`: 267 spans, 35 tool calls, 38 model calls); the helpers' app spans arrive alone in their traces. The guide says to run one graph at a time per process with this instrumentation, or use OpenInference.";

export const KNOWN_GAPS: KnownGap[] = [
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:auditor',
    field: 'actions',
    readsToday: [
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'write_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
      'read_file',
    ],
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:auditor',
    field: 'costUsd',
    readsToday: 0.0133,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:auditor',
    field: 'inputTokens',
    readsToday: 3800,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:auditor',
    field: 'outputTokens',
    readsToday: 380,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:auditor',
    field: 'stepCount',
    readsToday: 35,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-a',
    field: 'actions',
    readsToday: [],
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-a',
    field: 'costUsd',
    readsToday: 0,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-a',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-a',
    field: 'inputTokens',
    readsToday: 0,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-a',
    field: 'outputTokens',
    readsToday: 0,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-a',
    field: 'stepCount',
    readsToday: 0,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-b',
    field: 'actions',
    readsToday: [],
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-b',
    field: 'costUsd',
    readsToday: 0,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-b',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-b',
    field: 'inputTokens',
    readsToday: 0,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-b',
    field: 'outputTokens',
    readsToday: 0,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-b',
    field: 'stepCount',
    readsToday: 0,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
];
