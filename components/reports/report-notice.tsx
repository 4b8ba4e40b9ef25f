import type { ReactNode } from 'react';

/** A problem with the request (a bad parameter, an unknown project), said plainly. */
export function ReportNotice({ children, danger }: { children: ReactNode; danger?: boolean }) {
  return (
    <p role={danger ? 'alert' : 'status'} className={danger ? 'notice notice-danger' : 'notice'}>
      {children}
    </p>
  );
}
