'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { ProblemPage, withoutProblems } from '@/components/problem-page';
import { REPORT_TABS } from '@/components/reports/report-header';
import { searchParamsObject } from '@/lib/filters';
import { REPORT_SCHEMAS, parseReportQuery } from '@/lib/report-params';

/** Why a report page answered 404, found again from the URL by the page's own schema. */
export function ReportProblems() {
  const pathname = usePathname();
  const search = useSearchParams();
  const tab = REPORT_TABS.find((t) => t.path === pathname);
  const schema = REPORT_SCHEMAS[pathname];
  const title = tab?.label ?? 'Reports';
  if (!schema) {
    return (
      <ProblemPage
        title="Page not found"
        lead={`There is no report at ${pathname}.`}
        links={REPORT_TABS.map((t) => ({ href: t.path, label: t.label }))}
      />
    );
  }
  const parsed = parseReportQuery(schema, searchParamsObject(search));
  const problems = parsed.ok ? [] : parsed.problems;
  const project = search.get('project');
  if (problems.length > 0) {
    const again = withoutProblems(search, problems).toString();
    return (
      <ProblemPage
        title={title}
        lead={`This link has ${problems.length === 1 ? 'a parameter' : `${problems.length} parameters`} Loopscope cannot read:`}
        problems={problems}
        links={[
          { href: again ? `${pathname}?${again}` : pathname, label: 'Open it without them' },
          { href: pathname, label: `← ${title}` },
        ]}
      />
    );
  }
  return (
    <ProblemPage
      title={title}
      lead={
        project
          ? `There is no project named “${project}”.`
          : 'There is no project yet: send traces to /v1/traces first.'
      }
      links={[{ href: pathname, label: `← ${title} of project default` }]}
    />
  );
}
