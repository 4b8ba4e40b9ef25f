import { letterFor, letterSequence, solidColor, tintColor } from './lane-model';
import type { HashLegendEntry, Trajectory } from './types';
import styles from './legend.module.css';

const SHOWN = 14;

/** What each letter stands for, and the letter sequence each lane reads (A B A B …). */
export function LaneLegend({
  trajectory,
  stateLabel,
}: {
  trajectory: Trajectory;
  stateLabel: string;
}) {
  return (
    <div className={styles.legend}>
      <LegendRow
        title="Actions"
        entries={trajectory.actions}
        sequence={letterSequence(trajectory.steps.map((s) => s.actionKey))}
        describe={(e) => e.name ?? e.hash}
      />
      <LegendRow
        title={stateLabel === 'State' ? 'States' : `${stateLabel}s`}
        entries={trajectory.states}
        sequence={letterSequence(trajectory.steps.map((s) => s.stateKey))}
        describe={(e) => e.hash}
      />
      <p className={styles.key}>
        <span className={styles.arcKey} aria-hidden="true" /> arc: returns to an earlier state
        (A/B/A)
        <span className={styles.markKey} aria-hidden="true" /> repeat
        <span className={styles.stallKey} aria-hidden="true" /> stall window
        <span className={styles.passKey} aria-hidden="true" /> pass
        <span className={styles.failKey} aria-hidden="true" /> fail
        <span className={styles.stalledKey} aria-hidden="true" /> stalled
      </p>
    </div>
  );
}

function LegendRow({
  title,
  entries,
  sequence,
  describe,
}: {
  title: string;
  entries: HashLegendEntry[];
  sequence: string;
  describe: (entry: HashLegendEntry) => string;
}) {
  return (
    <div className={styles.row}>
      <span className={styles.title}>{title}</span>
      <span className={styles.sequence} aria-label={`${title} sequence`}>
        {entries.length === 0 ? 'none sent' : sequence}
      </span>
      <ul className={styles.entries} aria-label={`${title} by letter`}>
        {entries.slice(0, SHOWN).map((e) => (
          <li key={e.key} title={`${e.hash}… · ${e.count} step(s)`}>
            <span
              className={styles.chip}
              style={{ background: tintColor(e.key), borderColor: solidColor(e.key) }}
            >
              {letterFor(e.key)}
            </span>
            <span className={styles.name}>{describe(e)}</span>
            <span className="muted">×{e.count}</span>
          </li>
        ))}
        {entries.length > SHOWN ? <li className="muted">+{entries.length - SHOWN} more</li> : null}
      </ul>
    </div>
  );
}
