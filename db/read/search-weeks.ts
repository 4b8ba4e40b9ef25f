// A rare word's runs of the window only, found through an index keyed by week and trigram.
//
// The trigram index (runs_search_idx) finds every run of every week whose text holds the word;
// the window is then checked on the rows, a heap page each. At 10M steps over 35 days a word in
// 0.1 % of runs is 506 rows for the 101 of the last 7 days, so the read grew with the project's
// history rather than with its answer. runs_search_weeks_idx holds each run's trigrams prefixed
// with its week (`2970:613`, migration 0020's `run_search_keys`): the window's weeks' keys are
// looked up, one short posting list each, and only those weeks' runs are read.
//
// The keys only find rows; every word is still matched on them (run-filters.ts), so the answer is
// the same either way. A word's keys are its trigrams that lie inside the word (no padding), which
// are in the text of every run containing it; `run_search_word_keys` makes them with pg_trgm's own
// `show_trgm`, so both sides split words and fold case alike.
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { TimeWindow } from '../../lib/filters';
import { runs } from '../schema';

/** The keys' week: 7 days from the Unix epoch, as migration 0020's `run_search_keys` counts. */
export const SEARCH_WEEK_MS = 7 * 86_400_000;

/**
 * Past this many weeks a window reads through the trigram index: one lookup a week costs more
 * than the rows it saves, and the planner's work grows with every OR.
 */
export const MAX_SEARCH_WEEKS = 27;

/** The weeks the window's runs can start in, or null when there are too many to look up. */
export function searchWeeks(window: TimeWindow): number[] | null {
  const first = Math.floor(window.from.getTime() / SEARCH_WEEK_MS);
  // `to` is excluded: a window ending on a week's first instant does not reach into that week.
  const last = Math.floor((window.to.getTime() - 1) / SEARCH_WEEK_MS);
  if (last < first) return [];
  if (last - first + 1 > MAX_SEARCH_WEEKS) return null;
  return Array.from({ length: last - first + 1 }, (_, k) => first + k);
}

/**
 * Whether the word has a trigram inside it in every locale: three ASCII letters or digits in a
 * row. A word of none (`ab`, `%_`, or letters another locale may not count as such) would look
 * up no key, and an empty set of keys matches every row.
 */
export function hasSearchKey(word: string): boolean {
  return /[a-z0-9]{3}/i.test(word);
}

/**
 * The rows of the window's weeks whose text holds every trigram of `words`, or undefined when
 * the window is too long or no word has a key (the caller then leaves the finding to the trigram
 * index). A window of no week matches nothing.
 */
export function searchWeeksCondition(
  window: TimeWindow,
  words: readonly string[],
): SQL | undefined {
  const weeks = searchWeeks(window);
  const keyed = words.filter(hasSearchKey);
  if (weeks === null || keyed.length === 0) return undefined;
  if (weeks.length === 0) return sql`false`;
  const text = keyed.join(' ');
  const lookups = weeks.map(
    (week) =>
      sql`run_search_keys(${runs.startedAt}, ${runs.searchText}) @> run_search_word_keys(${week}::bigint, ${text})`,
  );
  return sql`(${sql.join(lookups, sql` or `)})`;
}
