#!/usr/bin/env node
// Runs the benchmark (bench/run.ts) from source through tsx, like bin/loopscope.mjs.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../bench/run.ts');
process.exit(await main(process.argv.slice(2)));
