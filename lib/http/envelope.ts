import { ApiError } from '@/lib/core/errors';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * The text a JSON response was built from, kept on it: a server that writes the response to a
 * node:http socket itself (./node-dispatch.ts) sends it without reading the body stream back.
 */
export const RESPONSE_TEXT = Symbol.for('sgp.http.responseText');

export function jsonResponse(body: unknown, status: number, headers: Headers): Response {
  headers.set('content-type', 'application/json; charset=utf-8');
  const text = JSON.stringify(body);
  return Object.defineProperty(new Response(text, { status, headers }), RESPONSE_TEXT, { value: text });
}

/**
 * `{success:false, error:{code, message, details?, request_id}}` — the one error envelope. With
 * `topLevelCode` the code is repeated beside `error` (the workflow-start errors of spec §7).
 */
export function errorBody(error: ApiError, requestId: string, topLevelCode = false) {
  return {
    success: false as const,
    ...(topLevelCode ? { code: error.code } : {}),
    error: {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
      request_id: requestId,
    },
  };
}

export function errorResponse(error: ApiError, requestId: string, headers = new Headers(), topLevelCode = false): Response {
  headers.set(REQUEST_ID_HEADER, requestId);
  for (const [name, value] of Object.entries(error.headers ?? {})) headers.set(name, value);
  return jsonResponse(errorBody(error, requestId, topLevelCode), error.status, headers);
}
