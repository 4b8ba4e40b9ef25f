'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { ProblemPage } from '@/components/problem-page';
import { viewHref } from '@/lib/view-window';

/** A run this project does not have: its id, where else it may be, and the way back. */
export function RunProblem() {
  const pathname = usePathname();
  const search = useSearchParams();
  const segment = pathname.split('/')[2] ?? '';
  let runId = segment;
  try {
    runId = decodeURIComponent(segment);
  } catch {
    // shown as it came
  }
  const project = search.get('project') ?? 'default';
  return (
    <ProblemPage
      title="No such run"
      lead={`Project ${project} has no run “${runId}”. It may belong to another project (add ?project=NAME), or its spans have not arrived yet.`}
      links={[{ href: viewHref('/', search), label: '← All runs' }]}
    />
  );
}
