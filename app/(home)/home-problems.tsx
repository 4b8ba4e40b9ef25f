'use client';

import { useSearchParams } from 'next/navigation';
import { ProblemPage, withoutProblems } from '@/components/problem-page';
import { isTimeZone } from '@/lib/time-zone';
import { parseHomeQuery } from './search-params';

/** Why the runs page answered 404, found again from the URL by the page's own parser. */
export function HomeProblems() {
  const search = useSearchParams();
  const tz = search.get('tz') ?? 'UTC';
  const parsed = parseHomeQuery(search, new Date(), isTimeZone(tz) ? tz : 'UTC');
  const project = search.get('project');
  const problems = parsed.ok ? [] : parsed.problems;
  const again = withoutProblems(search, problems, ['cursor']).toString();
  if (problems.length > 0) {
    return (
      <ProblemPage
        title="Runs by exit reason"
        lead={`This link has ${problems.length === 1 ? 'a parameter' : `${problems.length} parameters`} Loopscope cannot read:`}
        problems={problems}
        links={[
          { href: again ? `/?${again}` : '/', label: 'Open it without them' },
          { href: '/', label: '← All runs' },
        ]}
      />
    );
  }
  return (
    <ProblemPage
      title="Runs by exit reason"
      lead={
        project
          ? `There is no project named “${project}”.`
          : 'There is no project yet: send traces to /v1/traces first.'
      }
      links={[{ href: '/', label: '← Runs of project default' }]}
    />
  );
}
