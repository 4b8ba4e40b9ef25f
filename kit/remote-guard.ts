// `POST /api/v1/guard` for a harness: Loopscope's decision from the trajectory as stored. The
// run's spans must be exported first, so pass the provider's forceFlush as `flush`.
import type { GuardVerdict } from '../trajectory/guard';

export interface RemoteGuardOptions {
  /** Loopscope's origin, e.g. http://127.0.0.1:3000. */
  url: string;
  key: string;
  /** Exports what the harness has ended so far (e.g. `() => provider.forceFlush()`). */
  flush?: () => Promise<void>;
  fetch?: typeof fetch;
}

export type RemoteGuard = (runId: string) => Promise<GuardVerdict>;

export function remoteGuard(options: RemoteGuardOptions): RemoteGuard {
  const send = options.fetch ?? fetch;
  const endpoint = `${options.url.replace(/\/+$/, '')}/api/v1/guard`;
  return async (runId) => {
    await options.flush?.();
    const response = await send(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ runId }),
    });
    const body = (await response.json().catch(() => null)) as
      GuardVerdict | { error?: { message?: string } } | null;
    if (!response.ok || !body || !('decision' in body)) {
      const message = body && 'error' in body ? body.error?.message : undefined;
      throw new Error(`Loopscope guard answered ${response.status}: ${message ?? 'no decision'}`);
    }
    return body;
  };
}
