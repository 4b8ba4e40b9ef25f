import { ReportProblems } from './report-problems';

export default function ReportNotFound() {
  return <ReportProblems />;
}
