import { ping } from '@/db/ping';
import { deriveHeldBack, getRuntime } from '@/server/runtime';

export const dynamic = 'force-dynamic';

/** 200 once the database is ready and migrated and answers; 503 otherwise. */
export async function GET(): Promise<Response> {
  const headers = { 'cache-control': 'no-store' };
  try {
    const runtime = getRuntime();
    if (runtime.status !== 'ready' || !runtime.handle) {
      return Response.json(
        { status: runtime.status, error: runtime.lastError },
        { status: 503, headers: { ...headers, 'retry-after': '2' } },
      );
    }
    await ping(runtime.handle.db);
    const spool = await runtime.spool.recount(runtime.handle.db);
    const held = deriveHeldBack(runtime);
    return Response.json(
      {
        status: 'ready',
        database: runtime.handle.kind,
        pendingRuns: runtime.deriver.backlog,
        spool: {
          requests: spool.requests,
          bytes: spool.bytes,
          oldestAgeSeconds: Math.round(spool.oldestAgeMs / 100) / 10,
          stuck: spool.stuck,
          // Projects whose requests wait for their derivation to catch up (null: every project's).
          heldBack: held.everyone ? null : held.projects.length,
        },
        ingest: runtime.admission.state(),
        onDisk: runtime.hold?.held ?? null,
        reads: runtime.readReplica?.describe() ?? null,
      },
      { headers },
    );
  } catch {
    // What this server holds on disk meanwhile (ingest/hold.ts): what it owes the database.
    const onDisk = safeRuntime()?.hold?.held ?? null;
    return Response.json(
      { status: 'unavailable', onDisk },
      { status: 503, headers: { ...headers, 'retry-after': '2' } },
    );
  }
}

function safeRuntime(): ReturnType<typeof getRuntime> | null {
  try {
    return getRuntime();
  } catch {
    return null;
  }
}
