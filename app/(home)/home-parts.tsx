import Link from 'next/link';
import type { TimeWindow } from '@/lib/filters';
import { formatDateTime } from '@/components/format';
import { ProjectSwitcher } from '@/components/runs/project-switcher';
import type { ProjectChoice } from '../current-project';

export function HomeHeader({
  window,
  projects,
  current,
}: {
  window: TimeWindow;
  projects: string[];
  current: string;
}) {
  return (
    <div className="home-header">
      <div>
        <h1>Runs by exit reason</h1>
        <p className="muted">
          {formatDateTime(window.from)} – {formatDateTime(window.to)} UTC · project {current}
        </p>
      </div>
      <ProjectSwitcher projects={projects} current={current} />
    </div>
  );
}

/** A link with a parameter this page cannot read: say which, and offer the plain view. */
export function ProblemNotice({ problem }: { problem: string }) {
  return (
    <main id="main" className="page">
      <h1>Runs by exit reason</h1>
      <p className="notice notice-danger" role="alert">
        This link has a parameter Loopscope cannot read: {problem}.
      </p>
      <p>
        <Link href="/">Open the runs of the last 7 days</Link>
      </p>
    </main>
  );
}

export function MissingProject({ choice }: { choice: ProjectChoice }) {
  return (
    <main id="main" className="page">
      <h1>Runs by exit reason</h1>
      <p className="notice notice-danger" role="alert">
        {choice.missing === null
          ? 'There is no project yet.'
          : `There is no project named “${choice.missing}”.`}
      </p>
      {choice.projects.length > 0 ? (
        <ul>
          {choice.projects.map((p) => (
            <li key={p.id}>
              <Link href={`/?project=${encodeURIComponent(p.name)}`}>{p.name}</Link>
            </li>
          ))}
        </ul>
      ) : null}
    </main>
  );
}
