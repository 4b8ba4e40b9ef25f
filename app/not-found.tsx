import { ProblemPage } from '@/components/problem-page';

export default function NotFound() {
  return (
    <ProblemPage
      title="Page not found"
      lead="Loopscope has no page at this address."
      links={[
        { href: '/', label: '← All runs' },
        { href: '/reports/weekly', label: 'Reports' },
      ]}
    />
  );
}
