import { describe, expect, it } from 'vitest';
import { NO_GROUP_COLOR, SERIES_COLORS, assignSeriesStyles } from './palette';

const agents = ['ops-agent', 'coder', 'crawler', 'form-filler', 'triage-bot', 'reconciler', null];

function luminance(hex: string): number {
  const channel = (k: number) => {
    const v = parseInt(hex.slice(1 + 2 * k, 3 + 2 * k), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};
/** CIE L*a*b* of an sRGB colour (D65), to measure how far apart two colours look. */
function lab(hex: string): [number, number, number] {
  const lin = [0, 1, 2].map((k) => {
    const v = parseInt(hex.slice(1 + 2 * k, 3 + 2 * k), 16) / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const [r, g, b] = lin;
  const xyz = [
    (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
    0.2126 * r + 0.7152 * g + 0.0722 * b,
    (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
  ].map((t) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t) / 116 + 16 / 116)) as [
    number,
    number,
    number,
  ];
  return [116 * xyz[1] - 16, 500 * (xyz[0] - xyz[1]), 200 * (xyz[1] - xyz[2])];
}
const deltaE = (x: string, y: string) => {
  const [a, b] = [lab(x), lab(y)];
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
};

describe('series colours', () => {
  it('gives every group of a chart its own colour, and runs without a group slate', () => {
    const styles = assignSeriesStyles(agents);
    const colors = agents.map((a) => styles.get(a)?.color);
    expect(new Set(colors).size).toBe(agents.length);
    expect(styles.get(null)?.color).toBe('var(--series-none)');
    expect(agents.filter((a) => a !== null).every((a) => styles.get(a)?.dash === undefined)).toBe(
      true,
    );
  });

  it('is the same for the same names on every page, whatever their order', () => {
    const a = assignSeriesStyles(agents);
    const b = assignSeriesStyles([...agents].reverse());
    for (const g of agents) expect(b.get(g)).toEqual(a.get(g));
  });

  it('any two colours look clearly different (CIE ΔE ≥ 20) in both themes', () => {
    for (const scheme of ['light', 'dark'] as const) {
      const colors = [...SERIES_COLORS, NO_GROUP_COLOR].map((c) => c[scheme]);
      for (let i = 0; i < colors.length; i++) {
        for (let j = i + 1; j < colors.length; j++) {
          expect(deltaE(colors[i]!, colors[j]!), `${colors[i]} vs ${colors[j]}`).toBeGreaterThan(
            20,
          );
        }
      }
    }
  });

  it('past ten groups, the colours repeat with a dash pattern, so no two series look alike', () => {
    const many = Array.from({ length: 23 }, (_, k) => `model-${String(k).padStart(2, '0')}`);
    const styles = [...assignSeriesStyles(many).values()].filter((s) => s.slot >= 0);
    const looks = new Set(styles.map((s) => `${s.color}|${s.dash ?? ''}`));
    expect(looks.size).toBe(23);
    expect(styles.filter((s) => s.dash !== undefined)).toHaveLength(13);
  });

  it('every colour stands out from the page in both themes, and from the others', () => {
    for (const c of [...SERIES_COLORS, NO_GROUP_COLOR]) {
      expect(contrast(c.light, '#ffffff')).toBeGreaterThanOrEqual(3);
      expect(contrast(c.dark, '#0a0a0a')).toBeGreaterThanOrEqual(3);
    }
    const distinct = (scheme: 'light' | 'dark') => new Set(SERIES_COLORS.map((c) => c[scheme]));
    expect(distinct('light').size).toBe(SERIES_COLORS.length);
    expect(distinct('dark').size).toBe(SERIES_COLORS.length);
  });
});
