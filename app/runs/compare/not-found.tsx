'use client';

import { useSearchParams } from 'next/navigation';
import { ProblemPage } from '@/components/problem-page';
import { searchParamsObject } from '@/lib/filters';
import { viewHref } from '@/lib/view-window';
import { parseCompareParams } from './search-params';

/** A comparison this project cannot show: each problem of the link, or the runs it lacks. */
export default function CompareNotFound() {
  const search = useSearchParams();
  const parsed = parseCompareParams(searchParamsObject(search));
  const project = search.get('project') ?? 'default';
  return (
    <ProblemPage
      title="Cannot compare these runs"
      lead={
        parsed.ok
          ? `Project ${project} does not have both runs “${parsed.data.a}” and “${parsed.data.b}”. One may belong to another project (add ?project=NAME), or its spans have not arrived yet.`
          : 'This link does not name two runs to compare.'
      }
      problems={parsed.ok ? [] : parsed.problems}
      links={[{ href: viewHref('/', search), label: '← All runs' }]}
    />
  );
}
