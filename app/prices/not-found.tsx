import { ReportProblems } from '../reports/report-problems';

export default function PricesNotFound() {
  return <ReportProblems />;
}
