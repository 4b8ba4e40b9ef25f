import { handleOtlpExport } from '@/ingest/otlp-endpoint';
import { otlpEndpointDeps } from '@/server/runtime';
import { errorResponse } from '../../http';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  try {
    return await handleOtlpExport(request, otlpEndpointDeps());
  } catch (error) {
    return errorResponse(error);
  }
}
