'use server';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { currentDoor, doorSettings } from '@/lib/door/dashboard-door';
import {
  createSessionToken,
  passwordMatches,
  revokeSessionToken,
  safeNextPath,
  SESSION_COOKIE,
  SESSION_TTL_MS,
} from '@/lib/door/dashboard-session';
import { CLIENT_ADDRESS_HEADER, loginThrottle } from '@/lib/door/login-throttle';

export async function logIn(formData: FormData): Promise<void> {
  const door = currentDoor();
  const next = safeNextPath(String(formData.get('next') ?? '/'));
  const requestHeaders = await headers();
  const address = requestHeaders.get(CLIENT_ADDRESS_HEADER) ?? 'unknown';
  const throttle = loginThrottle();
  const wait = throttle.waitSeconds(address);
  // Too many wrong guesses from this address: this one is not even checked.
  if (wait > 0) redirect(`/login?wait=${wait}&next=${encodeURIComponent(next)}`);
  const given = String(formData.get('password') ?? '');
  if (door.password === null || !passwordMatches(given, door.password)) {
    throttle.failed(address);
    redirect(`/login?failed=1&next=${encodeURIComponent(next)}`);
  }
  throttle.succeeded(address);
  const publicUrl = doorSettings().publicUrl;
  const secure =
    publicUrl?.startsWith('https:') === true || requestHeaders.get('x-forwarded-proto') === 'https';
  (await cookies()).set(SESSION_COOKIE, createSessionToken(door.password), {
    httpOnly: true,
    sameSite: 'strict',
    secure,
    path: '/',
    maxAge: SESSION_TTL_MS / 1000,
  });
  redirect(next);
}

export async function logOut(): Promise<void> {
  const door = currentDoor();
  const jar = await cookies();
  const token = jar.get(SESSION_COOKIE)?.value;
  // Revoked on the server, not only forgotten by this browser: a copied cookie stops working.
  if (door.password !== null) revokeSessionToken(token, door.password);
  jar.delete(SESSION_COOKIE);
  redirect('/login');
}
