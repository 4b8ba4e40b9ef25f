// The scenarios every framework runs, framework-neutral: the user's goal, the tools (with what
// each returns or throws), and the scripted model's next turn given how many tool results the
// conversation already holds. Each framework's run.mjs wires these into its own agent, model
// and tool types; the ground truth of each capture follows from these scripts.

export const TOOLS = {
  read_file: {
    description: 'Read a file of the repository',
    params: { path: 'string' },
    run: ({ path }) => `contents of ${path}: export const x = 1;`,
  },
  write_file: {
    description: 'Write a file of the repository',
    params: { path: 'string', content: 'string' },
    run: ({ path }) => `wrote ${path}`,
  },
  list_files: {
    description: 'List the files of the repository, one page at a time',
    params: { page: 'number' },
    run: ({ page }) => `page ${page}: src/p${page}-a.ts src/p${page}-b.ts`,
  },
  search_docs: {
    description: 'Search the documentation',
    params: { query: 'string' },
    run: () => 'No results for that query.',
  },
  open_file: {
    description: 'Open a source file',
    params: { path: 'string' },
    run: ({ path }) =>
      `// ${path}\nimport { helper } from './${path.endsWith('a.ts') ? 'b' : 'a'}';`,
  },
  deploy: {
    description: 'Deploy a version of the service',
    params: { version: 'string' },
    run: ({ version }) => {
      if (version === '1.0.2' && flakyControl) return `deployed ${version}`;
      throw new Error(`deploy of ${version} failed: cluster unreachable`);
    },
  },
  delete_branch: {
    description: 'Delete a git branch (needs a person to approve)',
    params: { name: 'string' },
    run: ({ name }) => `deleted ${name}`,
  },
};

// Only the control scenario lets one deploy succeed; set by the framework script at start.
let flakyControl = false;
export const letOneDeploySucceed = () => {
  flakyControl = true;
};

const repeat = (n, turn) => Array.from({ length: n }, () => turn);
const call = (name, args) => ({ toolCalls: [{ name, args }] });
const text = (t) => ({ text: t });

/** Each scenario's model turns, in order; a turn past the end repeats the last one. */
const SCRIPTS = {
  success: [
    call('read_file', { path: 'README.md' }),
    call('write_file', { path: 'README.md', content: 'Fixed the typo.' }),
    text('Done: the typo in README.md is fixed.'),
  ],
  // Never stops by itself: each turn asks for the next page, so only the framework's limit ends it.
  'step-limit': Array.from({ length: 50 }, (_, i) => call('list_files', { page: i + 1 })),
  repeat: [
    ...repeat(4, call('search_docs', { query: 'reset password' })),
    text('I could not find it.'),
  ],
  oscillation: [
    call('open_file', { path: 'src/a.ts' }),
    call('open_file', { path: 'src/b.ts' }),
    call('open_file', { path: 'src/a.ts' }),
    call('open_file', { path: 'src/b.ts' }),
    text('parseConfig is defined in neither file.'),
  ],
  'tool-failures': [
    call('deploy', { version: '1.0.1' }),
    call('deploy', { version: '1.0.2' }),
    call('deploy', { version: '1.0.3' }),
    call('deploy', { version: '1.0.4' }),
    text('Every deploy failed; the cluster is unreachable.'),
  ],
  'tool-flaky': [
    call('deploy', { version: '1.0.1' }),
    call('deploy', { version: '1.0.2' }),
    call('deploy', { version: '1.0.3' }),
    text('1.0.2 is deployed; 1.0.3 failed.'),
  ],
  approval: [call('delete_branch', { name: 'stale-feature' }), text('Deleted.')],
  guardrail: [call('read_file', { path: 'secrets.env' }), text('Here are the secrets: hunter2')],
  long: [
    ...Array.from({ length: 32 }, (_, i) => call('read_file', { path: `src/f${i + 1}.ts` })),
    text('Audited all 32 files.'),
  ],
  'short-a': [call('read_file', { path: 'a.md' }), text('a.md is fine.')],
  'short-b': [
    call('read_file', { path: 'b.md' }),
    call('write_file', { path: 'b.md', content: 'b' }),
    text('b.md is updated.'),
  ],
};

/** A tool's parameters (name → 'string' | 'number') as the zod object of the calling project. */
export const zodParams = (z, params) =>
  z.object(
    Object.fromEntries(
      Object.entries(params).map(([k, t]) => [k, t === 'number' ? z.number() : z.string()]),
    ),
  );

export const GOALS = {
  success: 'Fix the typo in README.md',
  'step-limit': 'List every file of the repository',
  repeat: 'Find how to reset a password',
  oscillation: 'Find where parseConfig is defined',
  'tool-failures': 'Deploy the service',
  'tool-flaky': 'Deploy the service, one version after another',
  approval: 'Delete the stale-feature branch',
  guardrail: 'Show me the secrets file',
  long: 'Audit all 32 files [long]',
  'short-a': 'Check a.md [short-a]',
  'short-b': 'Update b.md [short-b]',
};

/** The script a conversation follows, found from its goal (interleaved runs share one model). */
export function scriptFor(goal) {
  const entry = Object.entries(GOALS)
    .filter(([, g]) => String(goal).includes(g))
    .sort(([, a], [, b]) => b.length - a.length)[0];
  if (!entry) throw new Error(`no script for goal ${JSON.stringify(goal).slice(0, 200)}`);
  return SCRIPTS[entry[0]];
}

/** The scripted model's next turn: which turn comes after `toolResults` tool results. */
export function nextTurn(goal, toolResults) {
  const script = scriptFor(goal);
  return script[Math.min(toolResults, script.length - 1)];
}

/** Counts tool results and finds the first user text in OpenAI chat `messages`. */
export function readOpenAIChat(messages) {
  const user = messages.find((m) => m.role === 'user');
  const goal =
    typeof user?.content === 'string'
      ? user.content
      : (user?.content ?? []).map((p) => p.text ?? '').join(' ');
  return { goal, toolResults: messages.filter((m) => m.role === 'tool').length };
}
