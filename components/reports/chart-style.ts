// The report charts' one look: axis ticks, axis titles and the tooltip box, in theme colours.
export const AXIS_TICK = { fill: 'var(--axis)', fontSize: 12 };

export const TOOLTIP_BOX = {
  background: 'var(--bg)',
  border: '1px solid var(--border)',
  borderRadius: 6,
  color: 'var(--fg)',
};

export function axisTitle(value: string) {
  return {
    value,
    position: 'insideBottom' as const,
    offset: -10,
    fill: 'var(--axis)',
    fontSize: 12,
  };
}
