// Verification is a second axis beside the exit category, and it never trusts the agent's own
// claim: only `loop.verified` (a review outside the agent) and environment-sourced verdicts count.
import type { VerificationState } from './exit-categories';
import type { StepInput } from './step';

export interface VerificationInput {
  /** `loop.verified` on the run, when sent. */
  verified: boolean | null;
  /** `loop.verified_units`, when sent. */
  verifiedUnits: number | null;
}

export interface VerificationResult {
  verification: VerificationState;
  verifiedUnits: number;
}

export function deriveVerification(
  run: VerificationInput,
  steps: readonly Pick<StepInput, 'verdict' | 'verdictSource'>[],
): VerificationResult {
  const verification = verificationState(run.verified, steps);
  if (verification !== 'verified') return { verification, verifiedUnits: 0 };
  const units = run.verifiedUnits;
  return {
    verification,
    verifiedUnits: units !== null && Number.isFinite(units) && units >= 0 ? units : 1,
  };
}

function verificationState(
  verified: boolean | null,
  steps: readonly Pick<StepInput, 'verdict' | 'verdictSource'>[],
): VerificationState {
  if (verified === true) return 'verified';
  if (verified === false) return 'contradicted';
  for (let k = steps.length - 1; k >= 0; k--) {
    const step = steps[k];
    if (step?.verdictSource !== 'environment' || step.verdict === null) continue;
    return step.verdict === 'pass' ? 'verified' : 'contradicted';
  }
  return 'unverified';
}
