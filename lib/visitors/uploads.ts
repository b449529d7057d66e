import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { config } from '@/lib/core/config';
import { ApiError, found } from '@/lib/core/errors';
import { siteIdSchema, uuidSchema } from '@/lib/core/schemas';
import { fileStorage } from '@/lib/providers/storage';
import { withinSiteCap } from '@/lib/sites/caps';
import { insertUpload, storedUploadBytes } from './uploads-repo';
import { findVisitor } from './visitors-repo';

/**
 * Accepted file types and how their content is recognised: binary types start with their format's
 * signature, text types are UTF-8 without NUL bytes — so a renamed executable is refused whatever
 * Content-Type the client claims. A Map: only these names match, never an inherited property.
 */
const starts = (b: Uint8Array, sig: number[]) => sig.every((v, i) => b[i] === v);
const utf8 = new TextDecoder('utf-8', { fatal: true });
function isText(b: Uint8Array): boolean {
  if (b.includes(0)) return false;
  try {
    utf8.decode(b);
    return true;
  } catch {
    return false;
  }
}

export const UPLOAD_MIME_TYPES: ReadonlyMap<string, (b: Uint8Array) => boolean> = new Map([
  ['image/png', (b: Uint8Array) => starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
  ['image/jpeg', (b: Uint8Array) => starts(b, [0xff, 0xd8, 0xff])],
  ['image/gif', (b: Uint8Array) => starts(b, [0x47, 0x49, 0x46, 0x38])],
  ['image/webp', (b: Uint8Array) => starts(b, [0x52, 0x49, 0x46, 0x46]) && starts(b.subarray(8), [0x57, 0x45, 0x42, 0x50])],
  ['application/pdf', (b: Uint8Array) => starts(b, [0x25, 0x50, 0x44, 0x46, 0x2d])],
  ['text/plain', isText],
  ['text/csv', isText],
  ['application/json', isText],
]);
export const UPLOAD_TYPE_NAMES = [...UPLOAD_MIME_TYPES.keys()];

/** Multipart framing around the file; the body cap is the file cap plus this. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export const uploadBodySchema = z.strictObject({
  site_id: siteIdSchema,
  visitor_id: uuidSchema.describe('Visitor the file belongs to').optional(),
  type: z.string().trim().min(1).max(100).describe('Label for the file, e.g. avatar, attachment, conversation').optional(),
  file: z.file().describe(`The file: ${UPLOAD_TYPE_NAMES.join(', ')}; at most UPLOAD_MAX_BYTES (default 10 MB)`),
});

export const UploadedFileSchema = z.object({
  file_id: uuidSchema,
  site_id: uuidSchema,
  visitor_id: uuidSchema.nullable(),
  type: z.string().nullable(),
  file_name: z.string(),
  content_type: z.string(),
  size: z.number().int().describe('Bytes'),
  storage: z.enum(['local', 'supabase']),
  storage_key: z.string().describe('Path of the file in the storage'),
  created_at: z.string().describe('ISO 8601'),
});

const safeName = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(-120) || 'file';

export async function uploadFile(siteId: string, input: z.infer<typeof uploadBodySchema>) {
  const { file } = input;
  const max = config().UPLOAD_MAX_BYTES;
  if (file.size > max) throw new ApiError('PAYLOAD_TOO_LARGE', `File exceeds ${max} bytes`, { max_bytes: max, size: file.size });
  if (file.size === 0) throw new ApiError('INVALID_REQUEST', 'File is empty');
  const contentType = (file.type || 'application/octet-stream').split(';')[0].trim().toLowerCase();
  const matches = UPLOAD_MIME_TYPES.get(contentType);
  if (!matches) throw new ApiError('INVALID_REQUEST', `File type ${contentType} is not allowed`, { allowed: UPLOAD_TYPE_NAMES });
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!matches(bytes)) throw new ApiError('INVALID_REQUEST', `File content is not ${contentType}`, { content_type: contentType });
  if (input.visitor_id) found(await findVisitor(siteId, input.visitor_id), 'Visitor');

  const storage = fileStorage();
  const id = randomUUID();
  const fileName = safeName(file.name || 'file');
  const key = `${siteId}/${id}/${fileName}`;
  // The file is stored before the cap's transaction (which holds the site's cap lock, and on the
  // embedded database the one backend session, only for its count and insert); a refused or
  // failed insert removes it again.
  await storage.put(key, bytes, contentType);
  let row: Awaited<ReturnType<typeof insertUpload>>;
  try {
    row = await withinSiteCap(
      siteId,
      'upload_bytes_per_site',
      (tx) => storedUploadBytes(siteId, tx),
      (tx) =>
        insertUpload(
          siteId,
          {
            id,
            visitorId: input.visitor_id ?? null,
            type: input.type ?? null,
            fileName,
            contentType,
            size: bytes.byteLength,
            storage: storage.kind,
            storageKey: key,
          },
          tx,
        ),
      bytes.byteLength,
    );
  } catch (error) {
    await storage.remove(key).catch(() => undefined);
    throw error;
  }
  return {
    file_id: row.id,
    site_id: row.siteId,
    visitor_id: row.visitorId,
    type: row.type,
    file_name: row.fileName,
    content_type: row.contentType,
    size: row.size,
    storage: row.storage,
    storage_key: row.storageKey,
    created_at: row.createdAt.toISOString(),
  };
}
