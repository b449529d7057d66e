import { ApiError } from '@/lib/core/errors';

export const REQUEST_ID_HEADER = 'x-request-id';
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The headers of an answer: names lower-cased, one value per name (`append` joins with ", ", as
 * web `Headers` do; no Set-Cookie — a protocol that sets cookies answers with its own Response).
 * What the pipeline's steps and a handler's `res.headers` write to, without the cost of a web
 * `Headers` per request.
 */
export class AnswerHeaders {
  readonly #values = new Map<string, string>();

  constructor(init?: Record<string, string>) {
    if (init) for (const name in init) this.set(name, init[name]);
  }
  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }
  set(name: string, value: string): void {
    this.#values.set(name.toLowerCase(), value);
  }
  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const current = this.#values.get(key);
    this.#values.set(key, current === undefined ? value : `${current}, ${value}`);
  }
  delete(name: string): void {
    this.#values.delete(name.toLowerCase());
  }
  forEach(callback: (value: string, name: string) => void): void {
    this.#values.forEach(callback);
  }
  /** `[name, value, name, value, …]`: what node's `writeHead` takes. */
  flat(): string[] {
    const out: string[] = [];
    for (const [name, value] of this.#values) out.push(name, value);
    return out;
  }
}

/**
 * An answer before it is a web `Response`: under Next it becomes one (`toResponse`); a server that
 * writes to a node:http socket itself (./node-dispatch.ts) sends it as it is, with the same status,
 * headers and body.
 */
export interface Answer {
  status: number;
  headers: AnswerHeaders;
  body: string;
}

/** A route's answer to a request: an Answer, or a Response another protocol built (MCP, next-auth, SSE). */
export type RouteAnswer = (req: Request, params: Record<string, unknown>) => Promise<Answer | Response>;

/** Where a declared route's handler keeps its RouteAnswer (one key for every copy of this module in a process). */
export const ROUTE_ANSWER = Symbol.for('sgp.http.routeAnswer');

export function toResponse(answer: Answer | Response): Response {
  if (answer instanceof Response) return answer;
  const headers = new Headers();
  answer.headers.forEach((value, name) => headers.set(name, value));
  return new Response(answer.body, { status: answer.status, headers });
}

export function jsonAnswer(body: unknown, status: number, headers: AnswerHeaders): Answer {
  headers.set('content-type', JSON_TYPE);
  return { status, headers, body: JSON.stringify(body) };
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

export function errorAnswer(error: ApiError, requestId: string, headers = new AnswerHeaders(), topLevelCode = false): Answer {
  headers.set(REQUEST_ID_HEADER, requestId);
  for (const [name, value] of Object.entries(error.headers ?? {})) headers.set(name, value);
  return jsonAnswer(errorBody(error, requestId, topLevelCode), error.status, headers);
}

export function errorResponse(error: ApiError, requestId: string): Response {
  return toResponse(errorAnswer(error, requestId));
}
