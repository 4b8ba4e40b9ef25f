// Code blocks of the READMEs, for the tests that run them as a user would paste them.

/** The first ```ts (or ```js) block of a README section (`## heading`). */
export function snippetOf(readme: string, heading: string, language = 'ts'): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`README has no section "${heading}"`);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const block = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(section);
  if (!block?.[1]) throw new Error(`README section "${heading}" has no ${language} code block`);
  return block[1];
}
