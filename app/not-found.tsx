import Link from 'next/link';

export default function NotFound() {
  return (
    <main id="main" className="page">
      <h1>Page not found</h1>
      <p>
        <Link className="button" href="/">
          ← All runs
        </Link>
      </p>
    </main>
  );
}
