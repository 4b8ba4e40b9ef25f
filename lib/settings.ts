// Operator configuration read from files: loop-signal thresholds (per agent) and the price table.
// Both are validated at the edge, so a typo fails at start with the file and field named.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { DeriveOptions } from '../trajectory/derive-run';
import { DEFAULT_DERIVE_OPTIONS } from '../trajectory/derive-run';
import type { ModelPrice } from '../trajectory/pricing';

const thresholds = z.object({
  stallWindow: z.number().int().min(1).optional(),
  toolCircuitThreshold: z.number().int().min(1).optional(),
  pollingTools: z.array(z.string().min(1)).optional(),
  ignoreArgs: z.array(z.string().min(1)).optional(),
});

const settingsFile = thresholds.extend({
  idleTimeoutMinutes: z.number().positive().optional(),
  agents: z.record(z.string(), thresholds).optional(),
});

const priceFile = z.object({
  models: z.array(
    z.object({
      model: z.string().min(1),
      input: z.number().nonnegative(),
      output: z.number().nonnegative(),
      cacheRead: z.number().nonnegative().nullable().optional(),
      checkedAt: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'checkedAt must be a date, YYYY-MM-DD'),
      source: z.string().optional(),
    }),
  ),
});

export interface LoopSettings {
  idleTimeoutMs: number;
  deriveOptionsFor(agent: string | null): DeriveOptions;
}

export const DEFAULT_IDLE_TIMEOUT_MINUTES = 30;

export function loopSettings(input: z.input<typeof settingsFile> = {}): LoopSettings {
  const parsed = settingsFile.parse(input);
  const base: DeriveOptions = {
    stallWindow: parsed.stallWindow ?? DEFAULT_DERIVE_OPTIONS.stallWindow,
    toolCircuitThreshold:
      parsed.toolCircuitThreshold ?? DEFAULT_DERIVE_OPTIONS.toolCircuitThreshold,
    pollingTools: parsed.pollingTools ?? DEFAULT_DERIVE_OPTIONS.pollingTools,
    ignoreArgs: parsed.ignoreArgs ?? DEFAULT_DERIVE_OPTIONS.ignoreArgs,
  };
  return {
    idleTimeoutMs: (parsed.idleTimeoutMinutes ?? DEFAULT_IDLE_TIMEOUT_MINUTES) * 60_000,
    deriveOptionsFor(agent) {
      const own = agent === null ? undefined : parsed.agents?.[agent];
      return {
        stallWindow: own?.stallWindow ?? base.stallWindow,
        toolCircuitThreshold: own?.toolCircuitThreshold ?? base.toolCircuitThreshold,
        pollingTools: own?.pollingTools ?? base.pollingTools,
        ignoreArgs: own?.ignoreArgs ?? base.ignoreArgs,
      };
    },
  };
}

export function readLoopSettings(file: string | undefined): LoopSettings {
  if (!file) return loopSettings();
  return loopSettings(readJsonFile(file, settingsFile));
}

export function readPriceFile(file: string): ModelPrice[] {
  return readJsonFile(file, priceFile).models.map((m) => ({
    model: m.model,
    inputPerMTok: m.input,
    outputPerMTok: m.output,
    cacheReadPerMTok: m.cacheRead ?? null,
    checkedAt: m.checkedAt,
    source: m.source ?? null,
  }));
}

function readJsonFile<T>(file: string, schema: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read ${file}: ${(error as Error).message}`);
  }
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join('.') || '(top level)'}: ${issue?.message}`);
  }
  return result.data;
}
