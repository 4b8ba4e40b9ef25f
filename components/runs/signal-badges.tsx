import Link from 'next/link';
import type { RunFlagsJson, RunSummary } from '@/lib/api-types';
import type { RunFlag } from '@/lib/filters';
import type { ExitCategory } from '@/trajectory/exit-categories';
import type { VerificationState } from '@/trajectory/exit-categories';
import { colorVar } from './exit-badge';
import styles from './badges.module.css';

export type BadgeFlag = Exclude<RunFlag, 'unexplainedStop' | 'fragment'>;

interface SignalBadge {
  flag: BadgeFlag;
  label: string;
  /** The category the signal leads to: its colour is the badge's. */
  category: ExitCategory;
  describe: (flags: RunFlagsJson) => string | null;
}

export const SIGNAL_BADGES: readonly SignalBadge[] = [
  {
    flag: 'repeat',
    label: 'repeat',
    category: 'no_progress',
    describe: (f) =>
      f.repeat && `Step ${f.repeat.step} repeats step ${f.repeat.of} with nothing changed`,
  },
  {
    flag: 'revisit',
    label: 'A/B/A',
    category: 'no_progress',
    describe: (f) =>
      f.revisit &&
      `Step ${f.revisit.step} returns to the state of step ${f.revisit.of} (cycle of ${f.revisit.cycleLength})`,
  },
  {
    flag: 'stall',
    label: 'stall',
    category: 'no_progress',
    describe: (f) => f.stall && `Progress stopped improving; stall marked at step ${f.stall.step}`,
  },
  {
    flag: 'toolCircuit',
    label: 'circuit',
    category: 'tool_circuit_open',
    describe: (f) =>
      f.toolCircuit && `${f.toolCircuit.tool} kept failing; circuit at step ${f.toolCircuit.step}`,
  },
  {
    flag: 'fabricatedSuccess',
    label: 'fabricated success',
    category: 'hard_error',
    describe: (f) =>
      f.fabricatedSuccess ? 'Claimed success while the environment check contradicted it' : null,
  },
];

export const BADGE_LABELS: Record<BadgeFlag, string> = Object.fromEntries(
  SIGNAL_BADGES.map((b) => [b.flag, b.label]),
) as Record<BadgeFlag, string>;

/** The run's loop-signal badges; each is a link that filters by it when `hrefFor` is given. */
export function SignalBadges({
  flags,
  hrefFor,
}: {
  flags: RunFlagsJson;
  hrefFor?: (flag: BadgeFlag) => string;
}) {
  const shown = SIGNAL_BADGES.flatMap((b) => {
    const description = b.describe(flags);
    return description ? [{ ...b, description }] : [];
  });
  if (shown.length === 0) return null;
  return (
    <span className={styles.signals}>
      {shown.map((b) =>
        hrefFor ? (
          <Link
            key={b.flag}
            className={styles.signal}
            style={colorVar(b.category)}
            href={hrefFor(b.flag)}
            prefetch={false}
            title={`${b.description}. Show only runs with this signal.`}
          >
            {b.label}
          </Link>
        ) : (
          <span
            key={b.flag}
            className={styles.signal}
            style={colorVar(b.category)}
            title={b.description}
          >
            {b.label}
          </span>
        ),
      )}
    </span>
  );
}

const VERIFICATION_TEXT: Record<VerificationState, string> = {
  verified: '✓ verified',
  contradicted: '✗ contradicted',
  unverified: 'unverified',
};

const SOURCE_TEXT: Record<NonNullable<RunSummary['verificationSource']>, string> = {
  environment: 'An environment check',
  review: 'A review outside the agent',
  human: 'A person',
};

export function VerificationMark({
  run,
}: {
  run: Pick<RunSummary, 'verification' | 'verifiedUnits'> &
    Partial<Pick<RunSummary, 'verificationSource'>>;
}) {
  const who = SOURCE_TEXT[run.verificationSource ?? 'environment'];
  const title =
    run.verification === 'verified'
      ? `${who} confirmed ${run.verifiedUnits} unit(s) of work`
      : run.verification === 'contradicted'
        ? run.verificationSource === 'environment' || !run.verificationSource
          ? 'The environment check at the end failed or stalled'
          : `${who} contradicted the outcome`
        : 'No environment check';
  return (
    <span className={`${styles.verification} ${styles[run.verification]}`} title={title}>
      {VERIFICATION_TEXT[run.verification]}
      {run.verificationSource === 'human' ? ' · by a person' : ''}
    </span>
  );
}
