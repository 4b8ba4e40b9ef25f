import { ReportProblems } from '../reports/report-problems';

export default function SessionsNotFound() {
  return <ReportProblems />;
}
