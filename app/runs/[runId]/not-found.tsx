import Link from 'next/link';

export default function RunNotFound() {
  return (
    <main id="main" className="page">
      <h1>No such run</h1>
      <p className="notice" role="alert">
        This project has no run with that id. It may belong to another project (add{' '}
        <code>?project=NAME</code>), or its spans have not arrived yet.
      </p>
      <p>
        <Link className="button" href="/">
          ← All runs
        </Link>
      </p>
    </main>
  );
}
