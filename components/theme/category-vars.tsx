import { EXIT_CATEGORIES, EXIT_CATEGORY_META } from '@/trajectory/exit-categories';

// The category colours as CSS custom properties (`--exit-<category>`), light and dark, written
// from EXIT_CATEGORY_META so tiles, chart, badges and lanes all read the one source.
const declarations = (scheme: 'light' | 'dark') =>
  EXIT_CATEGORIES.map((c) => `--exit-${c}:${EXIT_CATEGORY_META[c].color[scheme]};`).join('');

const CSS = `:root{${declarations('light')}}@media (prefers-color-scheme: dark){:root{${declarations('dark')}}}`;

export function CategoryVars() {
  return <style>{CSS}</style>;
}

/** The CSS colour of a category, for inline styles and SVG fills. */
export function categoryColor(category: string): string {
  return `var(--exit-${category})`;
}
