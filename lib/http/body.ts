import { config } from '@/lib/config';
import { ApiError } from './errors';

/**
 * Reads a JSON request body with the size cap applied while streaming, so an oversized or
 * lying Content-Length never makes the server buffer more than the cap.
 * An absent body reads as `undefined`; anything but JSON is refused.
 */
export async function readJsonBody(req: Request, maxBytes = config().MAX_BODY_BYTES): Promise<unknown> {
  const declared = req.headers.get('content-length');
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  const text = await readText(req, maxBytes);
  if (text.trim() === '') return undefined;
  const type = req.headers.get('content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    throw new ApiError('INVALID_REQUEST', 'Request body must be JSON (Content-Type: application/json)');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('INVALID_REQUEST', 'Request body is not valid JSON');
  }
}

async function readText(req: Request, maxBytes: number): Promise<string> {
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const tooLarge = (maxBytes: number) =>
  new ApiError('PAYLOAD_TOO_LARGE', `Request body exceeds ${maxBytes} bytes`, { max_bytes: maxBytes });
