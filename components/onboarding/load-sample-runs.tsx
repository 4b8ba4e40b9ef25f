'use client';

import { useFormStatus } from 'react-dom';

export type LoadSampleRunsAction = (formData: FormData) => void | Promise<void>;

/** The empty state's "Load sample runs": the sample loops sent through this server, a few seconds
 * of work, so the button says it is at it until they are in. */
export function LoadSampleRuns({
  action,
  project,
}: {
  action?: LoadSampleRunsAction;
  project: string;
}) {
  if (!action) return null;
  return (
    <form action={action}>
      <input type="hidden" name="project" value={project} />
      <SubmitButton />
    </form>
  );
}

function SubmitButton() {
  const { pending } = useFormStatus();
  return (
    <>
      <button className="button" type="submit" disabled={pending} aria-busy={pending}>
        {pending ? (
          <>
            <span className="spinner" aria-hidden="true" /> Loading sample runs…
          </>
        ) : (
          'Load sample runs'
        )}
      </button>
      <span role="status" className="muted" style={{ marginLeft: 10 }}>
        {pending
          ? 'Sending four weeks of sample runs through /v1/traces; this takes a few seconds.'
          : ''}
      </span>
    </>
  );
}
