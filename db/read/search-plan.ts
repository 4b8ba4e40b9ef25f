// How a search finds its runs, decided from the table's own statistics rather than left to the
// planner's estimate of a `%word%` match, which is a guess from a sample and flips between runs.
//
// Which words go through the trigram index: looking up a word most runs contain reads its whole
// posting list (`task` in every run's goal: half a million entries at 10M steps) to intersect it
// with a rare word's few hundred; checked on the rows the rare words found, it costs nothing.
//
// Where the order comes from: a list walks the time (or cost…) index and keeps the rows that
// match, which is quick when matches are dense and reads the whole window when they are rare
// (8 runs a day at 15,000 runs a day: 90,000 rows for a page, 95 ms, where gathering the index's
// matches and sorting them takes about 1 ms). The planner chooses between the two by its
// estimate; here the sample's share of the rarest word does, for both engines alike.
//
// Only where the rows are found, never which: every word is still matched.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { column, queryRows } from '../sql';
import type { Executor } from '../sql';
import { searchWords } from './run-filters';

/** A word in at least this share of the sampled runs is checked on the rows. */
const COMMON_SHARE = 0.2;
/** Fewer sampled values than this (a new or never analysed table) say nothing. */
const MIN_SAMPLE = 20;
/** ANALYZE moves slowly; the sample is read again after this long. */
const SAMPLE_TTL_MS = 60_000;

interface Sample {
  readAt: number;
  /** Most common values with their frequencies, then the histogram's values sharing the rest. */
  common: { text: string; freq: number }[];
  histogram: string[];
  /** The table's rows, every project's (the trigram index holds them all), by the last ANALYZE. */
  rows: number;
}

const samples = new WeakMap<Executor, Sample>();

const statsRow = z.object({
  mcv: column.json,
  freqs: column.json,
  histogram: column.json,
  rows: column.numberOrNull,
});
const texts = z.array(z.string()).nullable().catch(null);
const numbers = z.array(z.number()).nullable().catch(null);

async function readSample(db: Executor, now: number): Promise<Sample> {
  const cached = samples.get(db);
  if (cached && now - cached.readAt < SAMPLE_TTL_MS) return cached;
  const [row] = await queryRows(
    db,
    sql`select to_json(most_common_vals::text::text[]) as mcv, to_json(most_common_freqs) as freqs,
          to_json(histogram_bounds::text::text[]) as histogram,
          (select reltuples from pg_class where oid = to_regclass('runs'))::float8 as rows
        from pg_stats
        where schemaname = current_schema() and tablename = 'runs' and attname = 'search_text'`,
    statsRow,
  );
  const mcv = texts.parse(row?.mcv) ?? [];
  const freqs = numbers.parse(row?.freqs) ?? [];
  const sample: Sample = {
    readAt: now,
    common: mcv.map((text, i) => ({ text: text.toLowerCase(), freq: freqs[i] ?? 0 })),
    histogram: (texts.parse(row?.histogram) ?? []).map((text) => text.toLowerCase()),
    rows: Math.max(0, row?.rows ?? 0),
  };
  samples.set(db, sample);
  return sample;
}

/** The estimated share of runs whose search text contains `word`, or null with no sample. */
function shareOf(sample: Sample, word: string): number | null {
  if (sample.common.length + sample.histogram.length < MIN_SAMPLE) return null;
  const needle = word.toLowerCase();
  let share = 0;
  let commonFreq = 0;
  for (const { text, freq } of sample.common) {
    commonFreq += freq;
    if (text.includes(needle)) share += freq;
  }
  if (sample.histogram.length > 0) {
    const hits = sample.histogram.filter((text) => text.includes(needle)).length;
    share += (1 - commonFreq) * (hits / sample.histogram.length);
  }
  return share;
}

export interface SearchPlan {
  /** Words of `q` checked on the rows the other words found (run-filters.ts `checkedWords`). */
  checkedWords: string[];
  /** Gather every match through the index, then sort: the list must not walk a sort's index. */
  sortMatches: boolean;
}

const NO_PLAN: SearchPlan = { checkedWords: [], sortMatches: false };

/**
 * The plan for `q` on a page of `limit` runs. With a share `s` of the table's `rows` matching,
 * gathering the matches reads about `s × rows` rows, walking an index for a page about
 * `limit ÷ s`; a word the sample never saw counts as half a sampled value's share.
 */
export async function planSearch(
  db: Executor,
  q: string | undefined,
  limit: number,
  now = Date.now(),
): Promise<SearchPlan> {
  const words = searchWords(q);
  if (words.length === 0) return NO_PLAN;
  const sample = await readSample(db, now);
  const shares = words.map((word) => shareOf(sample, word));
  const known = shares.filter((share): share is number => share !== null);
  if (known.length < words.length) return NO_PLAN;
  const common = words.filter((_, k) => known[k]! >= COMMON_SHARE);
  const floor = 0.5 / (sample.common.length + sample.histogram.length);
  const rarest = Math.max(Math.min(...known), floor);
  return {
    checkedWords: common.length === words.length ? [] : common,
    sortMatches: rarest * sample.rows < (limit + 1) / rarest,
  };
}
