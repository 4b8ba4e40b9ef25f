// ┌──────────────────────────────────────────────────────────────────────────────────────────┐
// │ SLOT for "Load sample runs" (the sample-loops work wires it): pass a server action that    │
// │ ingests the sample trajectories into the current project. Without one, nothing renders.   │
// └──────────────────────────────────────────────────────────────────────────────────────────┘
export type LoadSampleRunsAction = (formData: FormData) => void | Promise<void>;

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
      <button className="button" type="submit">
        Load sample runs
      </button>
    </form>
  );
}
