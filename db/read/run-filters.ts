// The WHERE clause every run list and aggregate shares: project, time window, agent, variant,
// and the narrower filters some of them add. Every read of runs builds its WHERE here.
import { and, eq, gt, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { MAX_SEARCH_WORDS } from '../../lib/filters';
import type { RunFlag, TimeWindow } from '../../lib/filters';
import type { ExitCategory, VerificationState } from '../../trajectory/exit-categories';
import { runs } from '../schema';
import { searchWeeksCondition } from './search-weeks';

export interface RunScope {
  projectId: string;
  window: TimeWindow;
  agent?: string;
  variant?: string;
  exitCategory?: ExitCategory;
  flag?: RunFlag;
  /** Any of these variants (a comparison's two sides). */
  variants?: readonly string[];
  /** Only runs that have ended. */
  finished?: boolean;
  /** Words that must all appear in the run's search text (db/schema/runs.ts `search_text`). */
  q?: string;
  /** Words of `q` matched on the rows the others found, not in the index (search-plan.ts). */
  checkedWords?: readonly string[];
  /** Find the other words' runs by the window's weeks (search-weeks.ts), not in every week. */
  searchByWeek?: boolean;
  verification?: VerificationState;
  model?: string;
  costAbove?: number;
  sessionId?: string;
  /** Runs that claim success and nobody has checked: what a reviewer works through. */
  toCheck?: boolean;
}

const FLAG_CONDITIONS: Record<RunFlag, SQL> = {
  repeat: sql`${runs.repeatStep} is not null`,
  revisit: sql`${runs.revisitStep} is not null`,
  stall: sql`${runs.stallStep} is not null`,
  toolCircuit: sql`${runs.toolCircuitStep} is not null`,
  fabricatedSuccess: sql`${runs.fabricatedSuccess}`,
  unexplainedStop: sql`${runs.unexplainedStop}`,
  fragment: sql`${runs.fragment}`,
};

export function runScope(scope: RunScope): SQL {
  const words = searchWords(scope.q);
  const byWeek = scope.searchByWeek
    ? searchWeeksCondition(
        scope.window,
        words.filter((word) => !scope.checkedWords?.includes(word)),
      )
    : undefined;
  const conditions: (SQL | undefined)[] = [
    eq(runs.projectId, scope.projectId),
    ...(byWeek === undefined
      ? [gte(runs.startedAt, scope.window.from), lt(runs.startedAt, scope.window.to)]
      : // Found by week, the window is checked on the rows. The planner cannot tell how rare a
        // week's key is (pg_stats keeps the commonest keys only; the rest count as 0.5 % of
        // runs), and would intersect it with every index entry of the window: 100,000 at 10M.
        [
          sql`${runs.startedAt} + interval '0 s' >= ${scope.window.from.toISOString()}::timestamptz`,
          sql`${runs.startedAt} + interval '0 s' < ${scope.window.to.toISOString()}::timestamptz`,
        ]),
    scope.agent === undefined ? undefined : eq(runs.agent, scope.agent),
    scope.variant === undefined ? undefined : eq(runs.variant, scope.variant),
    scope.exitCategory === undefined ? undefined : eq(runs.exitCategory, scope.exitCategory),
    scope.flag === undefined ? undefined : FLAG_CONDITIONS[scope.flag],
    scope.variants === undefined ? undefined : inArray(runs.variant, [...scope.variants]),
    scope.finished ? ne(runs.exitCategory, 'running') : undefined,
    scope.verification === undefined ? undefined : eq(runs.verification, scope.verification),
    scope.model === undefined ? undefined : eq(runs.model, scope.model),
    scope.costAbove === undefined ? undefined : gt(runs.costUsd, scope.costAbove),
    scope.sessionId === undefined ? undefined : eq(runs.sessionId, scope.sessionId),
    scope.toCheck
      ? sql`${runs.exitCategory} in ('goal_satisfied', 'model_stopped') and ${runs.verification} = 'unverified'`
      : undefined,
    byWeek,
    // Found by week, every word is checked on the rows: none may pull in the trigram index too.
    ...words.map((word) => searchCondition(word, byWeek ? words : scope.checkedWords)),
  ];
  return and(...conditions) as SQL;
}

/** The words of `q`: split on white space, each at most once, the first few. */
export function searchWords(q: string | undefined): string[] {
  if (q === undefined) return [];
  const words = new Set(q.split(/\s+/).filter((w) => w !== ''));
  return [...words].slice(0, MAX_SEARCH_WORDS);
}

function searchCondition(word: string, checked: readonly string[] | undefined): SQL {
  const pattern = likePattern(word);
  // The same text, but not the indexed expression: the planner checks it on the rows.
  return checked?.includes(word)
    ? sql`(${runs.searchText} || '') ilike ${pattern}`
    : sql`${runs.searchText} ilike ${pattern}`;
}

/** `%word%` with the word's own `%`, `_` and `\` matched as the characters they are. */
function likePattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
