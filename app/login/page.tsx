import { redirect } from 'next/navigation';
import { safeNextPath } from '@/lib/door/dashboard-session';
import { currentDoor, hasDashboardSession } from '../dashboard-guard';
import { logIn } from './actions';

export const dynamic = 'force-dynamic';

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const next = safeNextPath(typeof params.next === 'string' ? params.next : '/');
  const door = currentDoor();
  if (!door.misconfigured && (await hasDashboardSession())) redirect(next);
  return (
    <main id="main" className="page login-page">
      <h1>Log in to Loopscope</h1>
      {door.misconfigured ? (
        <p role="alert">
          This server is bound beyond loopback without LOOPSCOPE_DASHBOARD_PASSWORD: the dashboard
          stays shut until the operator sets one.
        </p>
      ) : (
        <form action={logIn} className="login-form">
          <input type="hidden" name="next" value={next} />
          <label htmlFor="password">Dashboard password</label>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            autoFocus
          />
          {params.failed ? (
            <p role="alert">That password is not the one this server was given.</p>
          ) : null}
          {typeof params.wait === 'string' && /^\d+$/.test(params.wait) ? (
            <p role="alert">
              Too many wrong passwords from this address: wait {params.wait} s before trying again.
            </p>
          ) : null}
          <button className="button" type="submit">
            Log in
          </button>
        </form>
      )}
    </main>
  );
}
