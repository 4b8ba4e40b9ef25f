import { authenticateKey } from '@/db/projects';
import { keyFromHeaders } from '@/lib/door/api-key';
import { requireDatabase } from '@/server/runtime';

/** The project of the request's bearer key; 401 without a valid one. */
export async function authenticate(request: Request): Promise<string> {
  const scope = await authenticateKey(requireDatabase(), keyFromHeaders(request.headers));
  return scope.projectId;
}
