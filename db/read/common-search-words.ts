// Which words of a search most runs contain, by the table's own statistics. Looking such a word up
// in the trigram index reads its whole posting list (`task` in every run's goal: half a million
// entries at 10M steps) to intersect it with a rare word's few hundred; checked on the rows the
// rare words found, it costs nothing. Only where the rows are found, never which: every word is
// still matched.
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
}

const samples = new WeakMap<Executor, Sample>();

const statsRow = z.object({ mcv: column.json, freqs: column.json, histogram: column.json });
const texts = z.array(z.string()).nullable().catch(null);
const numbers = z.array(z.number()).nullable().catch(null);

async function readSample(db: Executor, now: number): Promise<Sample> {
  const cached = samples.get(db);
  if (cached && now - cached.readAt < SAMPLE_TTL_MS) return cached;
  const [row] = await queryRows(
    db,
    sql`select to_json(most_common_vals::text::text[]) as mcv, to_json(most_common_freqs) as freqs,
          to_json(histogram_bounds::text::text[]) as histogram
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

/**
 * The words of `q` to check on the rows instead of in the index: the common ones, when at least
 * one word is not (with every word common, the index is as good as anything).
 */
export async function commonSearchWords(
  db: Executor,
  q: string | undefined,
  now = Date.now(),
): Promise<string[]> {
  const words = searchWords(q);
  if (words.length < 2) return [];
  const sample = await readSample(db, now);
  const common = words.filter((word) => (shareOf(sample, word) ?? 0) >= COMMON_SHARE);
  return common.length === words.length ? [] : common;
}
