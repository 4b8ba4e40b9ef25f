import { redirect } from 'next/navigation';
import { searchParamsObject } from '@/lib/filters';

export const dynamic = 'force-dynamic';

/** The runs list lives at `/`; `/runs` is where a reader guesses it is. */
export default async function RunsIndex({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = new URLSearchParams(searchParamsObject(await searchParams)).toString();
  redirect(query ? `/?${query}` : '/');
}
