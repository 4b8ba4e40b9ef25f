import { NO_GROUP_COLOR, SERIES_COLORS } from '../charts/palette';

// The series colours as CSS custom properties (`--series-<k>`, `--series-none`), light and dark,
// for every page's charts, swatches and legends.
const declarations = (scheme: 'light' | 'dark') =>
  SERIES_COLORS.map((c, k) => `--series-${k}:${c[scheme]};`).join('') +
  `--series-none:${NO_GROUP_COLOR[scheme]};`;

const CSS = `:root{${declarations('light')}}@media (prefers-color-scheme: dark){:root{${declarations('dark')}}}`;

export function SeriesVars() {
  return <style>{CSS}</style>;
}
