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

/**
 * CIEDE2000 (Sharma, Wu and Dalal 2005): ΔE*76 counts saturated colours too far apart, so an
 * orange and a tan 31.6 apart by it read as one colour on a dark page; this is closer to the eye.
 */
function deltaE2000(x: string, y: string): number {
  const [L1, a1, b1] = lab(x);
  const [L2, a2, b2] = lab(y);
  const rad = Math.PI / 180;
  const Cbar = (Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2;
  const G = 0.5 * (1 - Math.sqrt(Cbar ** 7 / (Cbar ** 7 + 25 ** 7)));
  const [a1p, a2p] = [(1 + G) * a1, (1 + G) * a2];
  const [C1p, C2p] = [Math.hypot(a1p, b1), Math.hypot(a2p, b2)];
  const hue = (a: number, b: number) => {
    if (a === 0 && b === 0) return 0;
    const h = Math.atan2(b, a) / rad;
    return h < 0 ? h + 360 : h;
  };
  const [h1p, h2p] = [hue(a1p, b1), hue(a2p, b2)];
  let dhp = 0;
  if (C1p * C2p !== 0) {
    dhp = h2p - h1p;
    if (dhp > 180) dhp -= 360;
    else if (dhp < -180) dhp += 360;
  }
  const dHp = 2 * Math.sqrt(C1p * C2p) * Math.sin((dhp * rad) / 2);
  const Lbp = (L1 + L2) / 2;
  const Cbp = (C1p + C2p) / 2;
  let hbp = h1p + h2p;
  if (C1p * C2p !== 0) {
    hbp =
      Math.abs(h1p - h2p) <= 180
        ? (h1p + h2p) / 2
        : (h1p + h2p + (h1p + h2p < 360 ? 360 : -360)) / 2;
  }
  const T =
    1 -
    0.17 * Math.cos((hbp - 30) * rad) +
    0.24 * Math.cos(2 * hbp * rad) +
    0.32 * Math.cos((3 * hbp + 6) * rad) -
    0.2 * Math.cos((4 * hbp - 63) * rad);
  const dTheta = 30 * Math.exp(-(((hbp - 275) / 25) ** 2));
  const RC = 2 * Math.sqrt(Cbp ** 7 / (Cbp ** 7 + 25 ** 7));
  const SL = 1 + (0.015 * (Lbp - 50) ** 2) / Math.sqrt(20 + (Lbp - 50) ** 2);
  const SC = 1 + 0.045 * Cbp;
  const SH = 1 + 0.015 * Cbp * T;
  const RT = -Math.sin(2 * dTheta * rad) * RC;
  const [dL, dC, dH] = [(L2 - L1) / SL, (C2p - C1p) / SC, dHp / SH];
  return Math.sqrt(dL ** 2 + dC ** 2 + dH ** 2 + RT * dC * dH);
}

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

  it('any two colours look clearly different to the eye too (CIEDE2000 ≥ 12) in both themes', () => {
    // The dark theme’s orange and the tan it had before: 31.6 apart by ΔE*76, 10.2 by this.
    expect(deltaE2000('#fb923c', '#d6a06b')).toBeLessThan(12);
    expect(deltaE2000('#fb923c', '#fb923c')).toBe(0);
    for (const scheme of ['light', 'dark'] as const) {
      const colors = [...SERIES_COLORS, NO_GROUP_COLOR].map((c) => c[scheme]);
      for (let i = 0; i < colors.length; i++) {
        for (let j = i + 1; j < colors.length; j++) {
          expect(
            deltaE2000(colors[i]!, colors[j]!),
            `${scheme}: ${colors[i]} vs ${colors[j]}`,
          ).toBeGreaterThanOrEqual(12);
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
