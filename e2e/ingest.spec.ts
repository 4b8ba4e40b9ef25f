import { emitRun, restartLoop } from './support/scenarios';
import { expect, test } from './support/fixtures';

test('the built server is healthy and stores what a real exporter sends', async ({
  request,
  sender,
  server,
}) => {
  const health = await request.get('/api/health');
  expect(health.status()).toBe(200);
  expect(await health.json()).toMatchObject({ status: 'ready', database: 'pglite' });

  emitRun(sender.tracer, restartLoop());
  await sender.flush();

  const refused = await request.post('/v1/traces', {
    headers: { 'content-type': 'application/json', authorization: 'Bearer lsk_wrong' },
    data: '{}',
  });
  expect(refused.status()).toBe(401);
  const accepted = await request.post('/v1/traces', {
    headers: { 'content-type': 'application/json', authorization: `Bearer ${server.key}` },
    data: '{}',
  });
  expect(accepted.status()).toBe(200);
});
