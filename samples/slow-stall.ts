// (e) A slow stall: the vendor form has five fields the portal rejects because the country is
// wrong, and the agent never looks at the country. Every step edits another field with another
// value, so no call repeats and no state comes back; only the progress metric (invalid fields)
// shows it, flat at 5, while each step waits minutes for the portal's validation. The run ends on
// its wall-clock budget.
import { ToolError } from '../kit/index';
import type { SampleInput, Script, Task, World } from './agent-loop';
import { MODELS } from './scripted-model';

const BLOCKED = ['iban', 'bic', 'vatId', 'postalCode', 'street'] as const;
const CANDIDATES: Record<(typeof BLOCKED)[number], string[]> = {
  iban: ['DE89 3704 0044 0532 0130 00', 'DE89370400440532013000', 'de89370400440532013000'],
  bic: ['COBADEFFXXX', 'COBADEFF', 'COBADEFF370'],
  vatId: ['DE 123 456 789', 'DE123456789', '123456789'],
  postalCode: ['10115', 'D-10115', '10115 Berlin'],
  street: ['Invalidenstraße 117', 'Invalidenstr. 117', 'Invalidenstrasse 117'],
};

class VendorForm implements World {
  readonly stateFields = ['values', 'invalid'];
  private readonly values: Record<string, string> = {
    country: 'AT',
    legalName: 'ACME gmbh',
    contactEmail: 'billing@acme',
  };
  private readonly invalid = new Set<string>(['legalName', 'contactEmail', ...BLOCKED]);

  constructor(private readonly input: SampleInput) {}

  state() {
    return { values: { ...this.values }, invalid: [...this.invalid].sort() };
  }

  progress(): number {
    return this.invalid.size;
  }

  call(tool: string, args: Record<string, unknown>) {
    if (tool !== 'update_field') throw new ToolError(`unknown tool ${tool}`, 'malformed');
    const { rng, clock } = this.input;
    const field = String(args.field);
    this.values[field] = String(args.value);
    // The portal validates asynchronously and answers by webhook, minutes later.
    clock.advance(rng.int(90_000, 200_000));
    const blocked = (BLOCKED as readonly string[]).includes(field) && this.values.country === 'AT';
    if (!blocked) this.invalid.delete(field);
    return {
      result: { field, accepted: !blocked, invalidFields: this.invalid.size },
      tokens: rng.int(60, 160),
    };
  }
}

function* stallScript(): Script {
  yield {
    kind: 'tool',
    tool: 'update_field',
    args: { field: 'legalName', value: 'ACME GmbH' },
    thought: 'The legal form must be capitalised.',
  };
  yield {
    kind: 'tool',
    tool: 'update_field',
    args: { field: 'contactEmail', value: 'billing@acme.de' },
    thought: 'The contact email lacks a domain.',
  };
  for (let round = 0; ; round++) {
    for (const field of BLOCKED) {
      const value = CANDIDATES[field][round % 3] ?? '';
      yield {
        kind: 'tool',
        tool: 'update_field',
        args: { field, value: round < 3 ? value : `${value} ` + '.'.repeat(round) },
        thought: `The portal still rejects ${field}; try another format.`,
      };
    }
  }
}

export function slowStall(input: SampleInput): Task {
  return {
    goal: 'Complete the vendor onboarding form for ACME GmbH until the portal accepts all twelve fields.',
    agent: 'onboarding-agent',
    variant: input.variant,
    runId: input.runId,
    model: MODELS['gemini-2.5-flash'],
    limits: { maxSteps: 40, wallClockMs: 45 * 60_000 },
    world: new VendorForm(input),
    script: stallScript(),
    controls: { guard: true },
    pauseMs: [20_000, 60_000],
  };
}
