import { formatUsd } from '../format';
import styles from './sessions.module.css';

/**
 * Spend per run of a session as a curve (server-drawn SVG, no script): run 1 on the left, the
 * latest on the right, each point titled with its run's spend.
 */
export function SpendCurve({ points }: { points: { label: string; costUsd: number }[] }) {
  if (points.length === 0) return null;
  const width = 600;
  const height = 120;
  const pad = 8;
  const max = Math.max(...points.map((p) => p.costUsd), 1e-9);
  const x = (k: number) =>
    points.length === 1 ? width / 2 : pad + (k * (width - 2 * pad)) / (points.length - 1);
  const y = (v: number) => height - pad - (v / max) * (height - 2 * pad);
  const line = points.map((p, k) => `${x(k).toFixed(1)},${y(p.costUsd).toFixed(1)}`).join(' ');
  return (
    <figure className={styles.curve}>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`Spend per run, from ${formatUsd(points[0]!.costUsd)} to ${formatUsd(points.at(-1)!.costUsd)}; at most ${formatUsd(max)}`}
        preserveAspectRatio="none"
      >
        <polyline
          points={line}
          fill="none"
          stroke="var(--accent)"
          strokeWidth="2"
          vectorEffect="non-scaling-stroke"
        />
        {/* A zero-length line with round caps: a dot that stays round when the curve stretches. */}
        {points.map((p, k) => (
          <line
            key={k}
            x1={x(k)}
            y1={y(p.costUsd)}
            x2={x(k)}
            y2={y(p.costUsd)}
            stroke="var(--accent)"
            strokeWidth="8"
            strokeLinecap="round"
            vectorEffect="non-scaling-stroke"
          >
            <title>{`${p.label}: ${formatUsd(p.costUsd)}`}</title>
          </line>
        ))}
      </svg>
      <figcaption className="muted">
        Spend per run, in start order (highest {formatUsd(max)})
      </figcaption>
    </figure>
  );
}
