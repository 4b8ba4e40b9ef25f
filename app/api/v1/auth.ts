import { projectForKey } from '@/db/projects';
import { keyFromHeaders } from '@/lib/api-key';
import { AppError } from '@/lib/app-error';
import { requireDatabase } from '@/server/runtime';

/** The project of the request's bearer key; 401 without a valid one. */
export async function authenticate(request: Request): Promise<string> {
  const key = keyFromHeaders(request.headers);
  if (!key) throw new AppError('unauthorized', 'send Authorization: Bearer <project API key>');
  const projectId = await projectForKey(requireDatabase(), key);
  if (!projectId) throw new AppError('unauthorized', 'the API key is unknown or revoked');
  return projectId;
}
