import type { CSSProperties } from 'react';
import type { LaneStep } from './types';
import styles from './step-list.module.css';

const LOOP = { '--c': 'var(--sig-loop)' } as CSSProperties;
const CIRCUIT = { '--c': 'var(--sig-circuit)' } as CSSProperties;

/** The loop signals on one step, in the badge colours of the runs list. */
export function StepSignals({ step }: { step: LaneStep }) {
  if (step.signals.length === 0) return null;
  return (
    <span className={styles.signals}>
      {step.signals.includes('repeat') ? (
        <span className={styles.signal} style={LOOP} title={`Repeats step ${step.repeatOf}`}>
          repeat ← {step.repeatOf}
        </span>
      ) : null}
      {step.signals.includes('revisit') ? (
        <span
          className={styles.signal}
          style={LOOP}
          title={`Returns to the state of step ${step.revisitOf} (cycle of ${step.revisitCycle})`}
        >
          A/B/A ← {step.revisitOf}
        </span>
      ) : null}
      {step.signals.includes('stall') ? (
        <span className={styles.signal} style={LOOP} title="Progress stopped improving">
          stall
        </span>
      ) : null}
      {step.signals.includes('tool_circuit') ? (
        <span className={styles.signal} style={CIRCUIT} title="The tool kept failing">
          circuit
        </span>
      ) : null}
    </span>
  );
}
