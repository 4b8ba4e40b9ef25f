import styles from './run-header.module.css';

/** Use against a limit, as text and a bar; without a limit, just the use. */
export function LimitMeter({
  label,
  used,
  limit,
  format,
}: {
  label: string;
  used: number;
  limit: number | null;
  format: (value: number) => string;
}) {
  const ratio = limit && limit > 0 ? used / limit : null;
  return (
    <div className={styles.limit}>
      <span className={styles.limitLabel}>{label}</span>
      <span>
        {format(used)}
        {limit !== null ? (
          <span className="muted"> / {format(limit)}</span>
        ) : (
          <span className="muted"> (no limit sent)</span>
        )}
      </span>
      {ratio !== null ? (
        <span className={styles.bar} aria-hidden="true">
          <span
            className={ratio >= 1 ? styles.barFull : styles.barFill}
            style={{ width: `${Math.min(100, ratio * 100)}%` }}
          />
        </span>
      ) : null}
    </div>
  );
}
