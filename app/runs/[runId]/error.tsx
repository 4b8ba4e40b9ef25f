'use client';

import { ErrorState } from '@/components/error-state';

export default function Error({ error, retry }: { error: unknown; retry: () => void }) {
  return <ErrorState title="This run could not be loaded" error={error} retry={retry} />;
}
