import { ApiError } from '@/lib/core/errors';

export const REQUEST_ID_HEADER = 'x-request-id';

export function jsonResponse(body: unknown, status: number, headers: Headers): Response {
  headers.set('content-type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(body), { status, headers });
}

/** `{success:false, error:{code, message, details?, request_id}}` — the one error envelope. */
export function errorBody(error: ApiError, requestId: string) {
  return {
    success: false as const,
    error: {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
      request_id: requestId,
    },
  };
}

export function errorResponse(error: ApiError, requestId: string, headers = new Headers()): Response {
  headers.set(REQUEST_ID_HEADER, requestId);
  for (const [name, value] of Object.entries(error.headers ?? {})) headers.set(name, value);
  return jsonResponse(errorBody(error, requestId), error.status, headers);
}
