// Loading states shaped like the screens they stand in for, so nothing jumps when data arrives.
import { LANES_HEIGHT } from './trajectory/lane-geometry';
import { LIST_HEIGHT } from './trajectory/step-list';

const block = (height: number, width: number | string = '100%') => (
  <div className="skeleton" style={{ height, width }} />
);

export function HomeSkeleton() {
  return (
    <main id="main" className="page" aria-busy="true" aria-label="Loading runs">
      <div className="home-header">
        <div style={{ display: 'grid', gap: 8 }}>
          {block(22, 240)}
          {block(16, 380)}
        </div>
      </div>
      <div className="home-filters">{block(30, 520)}</div>
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(196px, 1fr))',
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
    </main>
  );
}

export function RunSkeleton() {
  return (
    <main id="main" className="page" aria-busy="true" aria-label="Loading the run">
      <div style={{ display: 'grid', gap: 12 }}>
        {block(18, 320)}
        {block(24, '60%')}
        {block(18, '45%')}
        <div
          style={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fit, minmax(260px, 1fr))',
            gap: 12,
          }}
        >
          {Array.from({ length: 4 }, (_, k) => (
            <div key={k}>{block(132)}</div>
          ))}
        </div>
      </div>
      {block(LANES_HEIGHT + 24 + 90)}
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: 'minmax(0, 2fr) minmax(340px, 1fr)',
          gap: 16,
        }}
      >
        {block(LIST_HEIGHT + 32)}
        {block(LIST_HEIGHT + 32)}
      </div>
    </main>
  );
}
