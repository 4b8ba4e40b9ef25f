// Verification is a second axis beside the exit category, and it never trusts the agent's own
// claim: only a person's verdict (through the API), `loop.verified` (a review outside the agent)
// and environment-sourced verdicts count, in that order.
import type { VerificationState } from './exit-categories';
import type { StepInput } from './step';

export const VERIFICATION_SOURCES = ['environment', 'review', 'human'] as const;
export type VerificationSource = (typeof VERIFICATION_SOURCES)[number];

export const HUMAN_VERDICTS = ['verified', 'contradicted'] as const;
export type HumanVerdict = (typeof HUMAN_VERDICTS)[number];

export interface VerificationInput {
  /** `loop.verified` on the run, when sent. */
  verified: boolean | null;
  /** `loop.verified_units`, when sent. */
  verifiedUnits: number | null;
  /** A person checked the outcome: it settles verification whatever the spans say. */
  human?: { verdict: HumanVerdict; units: number } | null;
}

export interface VerificationResult {
  verification: VerificationState;
  verifiedUnits: number;
  /** Who settled it; null while unverified. */
  source: VerificationSource | null;
}

export function deriveVerification(
  run: VerificationInput,
  steps: readonly Pick<StepInput, 'verdict' | 'verdictSource'>[],
): VerificationResult {
  if (run.human) {
    const { verdict, units } = run.human;
    return {
      verification: verdict,
      verifiedUnits: verdict === 'verified' ? units : 0,
      source: 'human',
    };
  }
  const { verification, source } = verificationState(run.verified, steps);
  if (verification !== 'verified') return { verification, verifiedUnits: 0, source };
  const units = run.verifiedUnits;
  return {
    verification,
    verifiedUnits: units !== null && Number.isFinite(units) && units >= 0 ? units : 1,
    source,
  };
}

function verificationState(
  verified: boolean | null,
  steps: readonly Pick<StepInput, 'verdict' | 'verdictSource'>[],
): { verification: VerificationState; source: VerificationSource | null } {
  if (verified === true) return { verification: 'verified', source: 'review' };
  if (verified === false) return { verification: 'contradicted', source: 'review' };
  for (let k = steps.length - 1; k >= 0; k--) {
    const step = steps[k];
    if (step?.verdictSource !== 'environment' || step.verdict === null) continue;
    return {
      verification: step.verdict === 'pass' ? 'verified' : 'contradicted',
      source: 'environment',
    };
  }
  return { verification: 'unverified', source: null };
}
