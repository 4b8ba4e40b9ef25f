'use client';

import Link from 'next/link';

/** What error.tsx shows: what failed, what to try, and the digest to find it in the server log. */
export function ErrorState({
  title,
  error,
  retry,
}: {
  title: string;
  error: unknown;
  retry: () => void;
}) {
  const digest =
    typeof error === 'object' && error !== null && 'digest' in error
      ? String((error as { digest: unknown }).digest)
      : null;
  return (
    <main id="main" className="page">
      <h1>{title}</h1>
      <div className="notice notice-danger" role="alert">
        <p style={{ margin: 0 }}>
          The server could not answer. If Loopscope has just started, its database may still be
          opening; otherwise the server log says why
          {digest ? (
            <>
              {' '}
              (look for <code>{digest}</code>)
            </>
          ) : null}
          .
        </p>
      </div>
      <p style={{ display: 'flex', gap: 12 }}>
        <button className="button" type="button" onClick={() => retry()}>
          Try again
        </button>
        <Link className="button" href="/">
          All runs
        </Link>
      </p>
    </main>
  );
}
