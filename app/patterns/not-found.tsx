import { ReportProblems } from '../reports/report-problems';

export default function PatternsNotFound() {
  return <ReportProblems />;
}
