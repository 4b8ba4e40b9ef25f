'use server';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import {
  createSessionToken,
  passwordMatches,
  safeNextPath,
  SESSION_COOKIE,
  SESSION_TTL_MS,
} from '@/lib/dashboard-session';
import { currentDoor } from '../dashboard-guard';

export async function logIn(formData: FormData): Promise<void> {
  const door = currentDoor();
  const next = safeNextPath(String(formData.get('next') ?? '/'));
  const given = String(formData.get('password') ?? '');
  if (door.password === null || !passwordMatches(given, door.password)) {
    redirect(`/login?failed=1&next=${encodeURIComponent(next)}`);
  }
  const secure = (await headers()).get('x-forwarded-proto') === 'https';
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
  (await cookies()).delete(SESSION_COOKIE);
  redirect('/login');
}
