import { letterFor, solidColor, tintColor } from './lane-model';
import styles from './step-list.module.css';

/** The letter and colour of a hash identity, as the lanes draw it. */
export function HashChip({ hashKey }: { hashKey: number | null }) {
  if (hashKey === null) return <span className={styles.chip} aria-hidden="true" />;
  return (
    <span
      className={styles.chip}
      style={{ background: tintColor(hashKey), borderColor: solidColor(hashKey) }}
    >
      {letterFor(hashKey)}
    </span>
  );
}
