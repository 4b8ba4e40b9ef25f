// PGlite on a thread of its own (db/pglite-thread.ts is the other end). Postgres in WASM runs
// every query synchronously on the thread that owns it; here that is not the thread that
// accepts connections and reads request bodies, so the server stays responsive under load and the
// second core works. Plain JavaScript, so it starts the same under tsx, vitest and plain Node.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, types } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

// Dates and times stay text, as drizzle's PGlite driver asks for on every query.
const keepText = (value) => value;
const PARSERS = Object.fromEntries(
  [
    types.TIMESTAMP,
    types.TIMESTAMPTZ,
    types.INTERVAL,
    types.DATE,
    1231, // numeric[]
    1115, // timestamp[]
    1185, // timestamptz[]
    1187, // interval[]
    1182, // date[]
  ].map((oid) => [oid, keepText]),
);

// pg_trgm: the runs list's search (`q`) matches words anywhere through a trigram index.
const extensions = { pg_trgm };
const db = workerData.dataDir
  ? await PGlite.create({ dataDir: workerData.dataDir, extensions })
  : await PGlite.create({ extensions });

/** Open transactions by id: each is a queue its callback inside PGlite's transaction serves. */
const transactions = new Map();

function answer(id, result) {
  parentPort.postMessage({ id, ok: true, result });
}

function fail(id, error) {
  const fields = {};
  for (const key of Object.keys(error ?? {})) {
    const value = error[key];
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  parentPort.postMessage({
    id,
    ok: false,
    error: { name: error?.name ?? 'Error', message: error?.message ?? String(error), ...fields },
  });
}

async function run(target, message) {
  const result = await target.query(message.sql, message.params, {
    rowMode: message.rowMode,
    parsers: PARSERS,
    ...(message.blob ? { blob: message.blob } : {}),
  });
  return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
}

function begin(id) {
  const queue = [];
  let wake = null;
  /** The commit or rollback that ends it, once it has come. */
  let ending = null;
  transactions.set(id, {
    push(message) {
      queue.push(message);
      wake?.();
    },
  });
  db.transaction(async (tx) => {
    answer(id, null);
    for (;;) {
      while (queue.length === 0) await new Promise((resolve) => (wake = resolve));
      wake = null;
      const message = queue.shift();
      if (message.op === 'commit' || message.op === 'rollback') {
        ending = message;
        if (message.op === 'rollback') throw new Error('rolled back by its caller');
        return;
      }
      try {
        answer(message.id, await run(tx, message));
      } catch (error) {
        fail(message.id, error);
      }
    }
  })
    .then(() => answer(ending.id, null))
    .catch((error) => {
      if (ending === null) fail(id, error);
      else if (ending.op === 'rollback') answer(ending.id, null);
      else fail(ending.id, error);
    })
    .finally(() => transactions.delete(id));
}

parentPort.on('message', async (message) => {
  try {
    if (message.op === 'query') {
      if (message.tx === undefined) answer(message.id, await run(db, message));
      else transactions.get(message.tx)?.push(message);
    } else if (message.op === 'exec') {
      const results = await db.exec(message.sql);
      answer(
        message.id,
        results.map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows })),
      );
    } else if (message.op === 'begin') {
      begin(message.id);
    } else if (message.op === 'commit' || message.op === 'rollback') {
      transactions.get(message.tx)?.push(message);
    } else if (message.op === 'close') {
      await db.close();
      answer(message.id, null);
    }
  } catch (error) {
    fail(message.id, error);
  }
});

parentPort.postMessage({ ready: true });
