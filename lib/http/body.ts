import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';

/**
 * How a route reads its body. `json`: application/json. `beacon`: JSON that may also arrive as
 * text/plain, which is what navigator.sendBeacon sends cross-origin without a preflight.
 * `multipart`: multipart/form-data; fields become strings, file parts `File`s.
 */
export type BodyType = 'json' | 'beacon' | 'multipart';

/**
 * A request that carries its body's bytes without a web stream (the node:http dispatcher,
 * ./node-dispatch.ts) offers this reader: it resolves with the whole body, or null as soon as
 * more than `maxBytes` arrived (the rest is left unread), and rejects when the client goes away
 * mid-body. The cap stays this module's rule; only the way the bytes arrive differs.
 */
export const READ_BYTES = Symbol.for('sgp.http.readBytes');
type BytesReader = (maxBytes: number) => Promise<Buffer | null>;

export function readBody(req: Request, type: BodyType, maxBytes = config().MAX_BODY_BYTES): Promise<unknown> {
  return type === 'multipart' ? readFormBody(req, maxBytes) : readJsonBody(req, maxBytes, type === 'beacon');
}

/**
 * Reads a JSON request body with the size cap applied while streaming, so an oversized or
 * lying Content-Length never makes the server buffer more than the cap.
 * An absent body reads as `undefined`; anything but JSON is refused.
 */
export async function readJsonBody(req: Request, maxBytes = config().MAX_BODY_BYTES, allowTextPlain = false): Promise<unknown> {
  checkDeclaredLength(req, maxBytes);
  const text = (await readBytes(req, maxBytes)).toString('utf8');
  if (text.trim() === '') return undefined;
  const type = req.headers.get('content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type) && !(allowTextPlain && /^text\/plain\b/i.test(type))) {
    throw new ApiError('INVALID_REQUEST', 'Request body must be JSON (Content-Type: application/json)');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('INVALID_REQUEST', 'Request body is not valid JSON');
  }
}

/** A multipart/form-data body, capped like JSON bodies: `{field: string | File}` (repeated names: last wins). */
export async function readFormBody(req: Request, maxBytes: number): Promise<Record<string, unknown> | undefined> {
  const type = req.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new ApiError('INVALID_REQUEST', 'Request body must be multipart/form-data');
  }
  checkDeclaredLength(req, maxBytes);
  const bytes = await readBytes(req, maxBytes);
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': type } }).formData();
  } catch {
    throw new ApiError('INVALID_REQUEST', 'Request body is not valid multipart/form-data');
  }
  const out: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) out[name] = value;
  return out;
}

function checkDeclaredLength(req: Request, maxBytes: number) {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
}

async function readBytes(req: Request, maxBytes: number): Promise<Buffer> {
  const direct = (req as Request & { [READ_BYTES]?: BytesReader })[READ_BYTES];
  if (direct) {
    const bytes = await direct.call(req, maxBytes).catch(() => {
      throw new ApiError('INVALID_REQUEST', 'Request body was not fully received');
    });
    if (!bytes) throw tooLarge(maxBytes);
    return bytes;
  }
  if (!req.body) return Buffer.alloc(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      // The client went away mid-body (connection closed or request aborted).
      throw new ApiError('INVALID_REQUEST', 'Request body was not fully received');
    });
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const tooLarge = (maxBytes: number) => new ApiError('PAYLOAD_TOO_LARGE', `Request body exceeds ${maxBytes} bytes`, { max_bytes: maxBytes });
