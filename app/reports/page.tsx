import { redirect } from 'next/navigation';

export default function ReportsIndex() {
  redirect('/reports/weekly');
}
