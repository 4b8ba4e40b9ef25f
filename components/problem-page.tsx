import Link from 'next/link';

/** A page that cannot answer its link (a 404): what is wrong, every problem named, and the way
 * back. */
export function ProblemPage({
  title,
  lead,
  problems = [],
  links,
}: {
  title: string;
  lead: string;
  problems?: string[];
  links: { href: string; label: string }[];
}) {
  return (
    <main id="main" className="page">
      <h1>{title}</h1>
      <div className="notice notice-danger" role="alert">
        <p style={{ margin: 0 }}>{lead}</p>
        {problems.length > 0 ? (
          <ul className="problem-list">
            {problems.map((p) => (
              <li key={p}>
                <code>{p.split(':')[0]}</code>:{p.slice(p.indexOf(':') + 1)}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <p className="problem-links">
        {links.map((l) => (
          <Link key={l.href} className="button" href={l.href}>
            {l.label}
          </Link>
        ))}
      </p>
    </main>
  );
}

/** The query without the parameters the problems name, to try the same view again. */
export function withoutProblems(
  search: URLSearchParams,
  problems: string[],
  drop: string[] = [],
): URLSearchParams {
  const bad = new Set([...problems.map((p) => p.split(/[.:]/)[0] ?? ''), ...drop]);
  const out = new URLSearchParams();
  for (const [key, value] of search) if (!bad.has(key) && value !== '') out.set(key, value);
  return out;
}
