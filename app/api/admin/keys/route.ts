import { sameSecret } from '@/lib/door/api-key';
import { AppError } from '@/lib/app-error';
import { keyCommand, runKeyCommand } from '@/server/key-commands';
import { getRuntime, requireDatabase } from '@/server/runtime';
import { respond } from '../../../http';

export const dynamic = 'force-dynamic';

/** The CLI's way in while this server holds the PGlite folder: the token is in that folder. */
export async function POST(request: Request): Promise<Response> {
  return respond(async () => {
    const token = getRuntime().adminToken;
    const given = request.headers.get('x-loopscope-admin') ?? '';
    if (!token || !sameSecret(given, token)) {
      throw new AppError('unauthorized', 'admin token required');
    }
    const parsed = keyCommand.safeParse(await request.json().catch(() => null));
    if (!parsed.success) throw new AppError('bad_request', 'expected a key command');
    return runKeyCommand(requireDatabase(), parsed.data);
  });
}
