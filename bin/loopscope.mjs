#!/usr/bin/env node
// Runs the TypeScript CLI from source through tsx, so the package needs no separate compile step.
import { register } from 'tsx/esm/api';

register();
await import('../server/cli.ts');
