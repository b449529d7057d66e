import { config } from '@/lib/core/config';
import { preflight } from '@/lib/http/cors';
import { visitorRoute } from '@/lib/http/visitor-policy';
import { MULTIPART_OVERHEAD_BYTES, UPLOAD_TYPE_NAMES, uploadBodySchema, UploadedFileSchema, uploadFile } from '@/lib/visitors/uploads';

// POST /api/visitors/upload — store a file for a visitor or conversation (multipart)
export const POST = visitorRoute({
  summary: 'Upload a file',
  description:
    `multipart/form-data with \`site_id\`, \`file\` and optionally \`visitor_id\` and \`type\`. Allowed types: ` +
    `${UPLOAD_TYPE_NAMES.join(', ')} (images and PDF must match their signature, text types must be UTF-8). Larger than UPLOAD_MAX_BYTES ` +
    "(default 10 MB) is 413 PAYLOAD_TOO_LARGE; beyond the site's stored-bytes cap of its plan, 403 PLAN_LIMIT_REACHED. Stored on local disk under DATA_DIR, or in Supabase Storage when " +
    'STORAGE_PROVIDER=supabase (503 PROVIDER_NOT_CONFIGURED if it lacks its URL or key).',
  body: uploadBodySchema,
  bodyReading: { type: 'multipart', maxBytes: () => config().UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD_BYTES },
  response: UploadedFileSchema,
  status: 201,
  errors: ['NOT_FOUND', 'PLAN_LIMIT_REACHED', 'PROVIDER_NOT_CONFIGURED'],
  handler: ({ siteId, body }) => uploadFile(siteId, body),
});

export const OPTIONS = preflight(['POST']);
