// Loading states shaped like the screens they stand in for, so nothing jumps when data arrives.
import { LANES_HEIGHT } from './trajectory/lane-geometry';
import { LIST_HEIGHT } from './trajectory/step-list';

const block = (height: number, width: number | string = '100%') => (
  <div className="skeleton" style={{ height, width }} />
);

/** The part of the home page that reads runs, while it loads (the header and window are in). */
export function HomeBodySkeleton() {
  return (
    <div style={{ display: 'grid', gap: 16 }} aria-busy="true" aria-label="Loading runs">
      <div className="home-filters">{block(30, 'min(520px, 100%)')}</div>
      {block(84)}
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(min(196px, 100%), 1fr))',
          gap: 10,
        }}
      >
        {Array.from({ length: 5 }, (_, k) => (
          <div key={k}>{block(108)}</div>
        ))}
      </div>
      {block(248)}
      <div style={{ display: 'grid', gap: 10 }}>
        {block(28, 120)}
        {block(34 + 48 * 8)}
      </div>
    </div>
  );
}

/** The lanes and the step list of a run, while its steps load (the header is in). */
export function TrajectorySkeleton() {
  return (
    <div style={{ display: 'grid', gap: 16 }} aria-busy="true" aria-label="Loading the steps">
      {block(LANES_HEIGHT + 24 + 90)}
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fit, minmax(min(340px, 100%), 1fr))',
          gap: 16,
        }}
      >
        {block(LIST_HEIGHT + 32)}
        {block(LIST_HEIGHT + 32)}
      </div>
    </div>
  );
}
