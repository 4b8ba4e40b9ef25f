import { formatDateTime } from '@/components/format';
import { ProjectSwitcher } from '@/components/runs/project-switcher';
import type { ViewWindow } from '@/lib/view-window';

export function HomeHeader({
  window,
  projects,
  current,
}: {
  window: ViewWindow;
  projects: string[];
  current: string;
}) {
  const zone = window.timeZone;
  return (
    <div className="home-header">
      <div>
        <h1>Runs by exit reason</h1>
        <p className="muted">
          {formatDateTime(window.from, zone)} – {formatDateTime(window.to, zone)} {zone} · project{' '}
          {current}
        </p>
      </div>
      <ProjectSwitcher projects={projects} current={current} />
    </div>
  );
}
