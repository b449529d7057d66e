import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { POST as createRoute } from '@/app/api/visitors/session/route';
import { POST as uploadRoute } from '@/app/api/visitors/upload/route';
import { config, resetConfig } from '@/lib/core/config';
import { storedUploadBytes } from '@/lib/visitors/uploads-repo';
import { authMatrix, presenters } from '@/tests/helpers/auth-matrix';
import { BASE, createTenant, type Tenant } from '@/tests/helpers/harness';

let mine: Tenant;
let other: Tenant;
beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});
afterEach(() => {
  delete process.env.STORAGE_PROVIDER;
  delete process.env.UPLOAD_MAX_BYTES;
  delete process.env.PLAN_CAPS;
  resetConfig();
});

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

/** A real multipart request, as a browser or curl would send it. */
async function upload(fields: Record<string, string | Blob | [Blob, string]>, headers: Record<string, string> = presenters.xSaApiKey(mine.key)) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (Array.isArray(v)) form.append(k, v[0], v[1]);
    else form.append(k, v);
  }
  const req = new Request(new URL('/api/visitors/upload', BASE), { method: 'POST', headers, body: form });
  const res = await uploadRoute(req, { params: Promise.resolve({}) });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe('POST /api/visitors/upload', () => {
  authMatrix({
    tenants: () => ({ mine, other }),
    present: presenters.xSaApiKey,
    write: true,
    send: (headers, siteId) => upload({ site_id: siteId, file: [new Blob(['hello'], { type: 'text/plain' }), 'a.txt'] }, headers),
  });

  it('stores the file on local disk under DATA_DIR and records it for the visitor', async () => {
    const session = await createRoute(
      new Request(new URL('/api/visitors/session', BASE), {
        method: 'POST',
        headers: { ...presenters.xSaApiKey(mine.key), 'content-type': 'application/json' },
        body: JSON.stringify({ site_id: mine.siteId }),
      }),
      { params: Promise.resolve({}) },
    );
    const visitorId = (await session.json()).data.visitor_id;
    const res = await upload({
      site_id: mine.siteId,
      visitor_id: visitorId,
      type: 'avatar',
      file: [new Blob([PNG], { type: 'image/png' }), '../../me pic.png'],
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      site_id: mine.siteId,
      visitor_id: visitorId,
      type: 'avatar',
      file_name: 'me_pic.png',
      content_type: 'image/png',
      size: PNG.length,
      storage: 'local',
    });
    const stored = await readFile(path.resolve(config().DATA_DIR, 'uploads', res.body.data.storage_key));
    expect(new Uint8Array(stored)).toEqual(PNG);
  });

  it('refuses a file over UPLOAD_MAX_BYTES with 413', async () => {
    process.env.UPLOAD_MAX_BYTES = '2048';
    resetConfig();
    const res = await upload({ site_id: mine.siteId, file: [new Blob(['x'.repeat(4096)], { type: 'text/plain' }), 'big.txt'] });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    // A body far over the cap is cut off while streaming.
    const huge = await upload({ site_id: mine.siteId, file: [new Blob(['x'.repeat(200 * 1024)], { type: 'text/plain' }), 'huge.txt'] });
    expect(huge.status).toBe(413);
  });

  it.each([
    ['a type outside the allowlist', new Blob(['MZ...'], { type: 'application/x-msdownload' }), 'INVALID_REQUEST'],
    ['a PNG whose bytes are not PNG', new Blob(['not a png'], { type: 'image/png' }), 'INVALID_REQUEST'],
    ['an empty file', new Blob([], { type: 'text/plain' }), 'INVALID_REQUEST'],
    ['a type named after an inherited property (constructor)', new Blob(['MZ\x90\x00'], { type: 'constructor' }), 'INVALID_REQUEST'],
    ['a type named __proto__', new Blob(['MZ\x90\x00'], { type: '__proto__' }), 'INVALID_REQUEST'],
    ['a type named toString', new Blob(['hello'], { type: 'tostring' }), 'INVALID_REQUEST'],
    [
      'an executable declared as text/plain',
      new Blob([Uint8Array.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00])], { type: 'text/plain' }),
      'INVALID_REQUEST',
    ],
    ['bytes that are not UTF-8 declared as text/csv', new Blob([Uint8Array.from([0x61, 0xff, 0xfe, 0x62])], { type: 'text/csv' }), 'INVALID_REQUEST'],
  ])('refuses %s with 400 in the envelope', async (_why, blob, code) => {
    const res = await upload({ site_id: mine.siteId, file: [blob, 'f.bin'] });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code } });
  });

  it('keeps a site within the stored bytes of its plan, also under parallel uploads, and other sites unaffected', async () => {
    const [full, neighbour] = await Promise.all([createTenant(), createTenant()]);
    process.env.PLAN_CAPS = JSON.stringify({ basic: { upload_bytes_per_site: 2500 } });
    resetConfig();
    const kb = () => [new Blob(['x'.repeat(1000)], { type: 'text/plain' }), 'k.txt'] as [Blob, string];
    const sends = await Promise.all(Array.from({ length: 6 }, () => upload({ site_id: full.siteId, file: kb() }, presenters.xSaApiKey(full.key))));
    expect(sends.map((r) => r.status).sort()).toEqual([201, 201, 403, 403, 403, 403]);
    const refused = sends.find((r) => r.status === 403)!;
    expect(refused.body).toMatchObject({
      success: false,
      error: { code: 'PLAN_LIMIT_REACHED', details: { cap: 'upload_bytes_per_site', limit: 2500, used: 2000 } },
    });
    expect(await storedUploadBytes(full.siteId)).toBe(2000);
    expect((await upload({ site_id: neighbour.siteId, file: kb() }, presenters.xSaApiKey(neighbour.key))).status).toBe(201);
  });

  it('requires the file field, refuses unknown fields and a visitor of another site', async () => {
    expect((await upload({ site_id: mine.siteId })).status).toBe(400);
    expect((await upload({ site_id: mine.siteId, extra: 'x', file: [new Blob(['a'], { type: 'text/plain' }), 'a.txt'] })).status).toBe(400);
    const res = await upload({
      site_id: mine.siteId,
      visitor_id: '00000000-0000-4000-8000-000000000000',
      file: [new Blob(['a'], { type: 'text/plain' }), 'a.txt'],
    });
    expect(res.status).toBe(404);
  });

  it('refuses a JSON body (multipart only)', async () => {
    const req = new Request(new URL('/api/visitors/upload', BASE), {
      method: 'POST',
      headers: { ...presenters.xSaApiKey(mine.key), 'content-type': 'application/json' },
      body: JSON.stringify({ site_id: mine.siteId }),
    });
    const res = await uploadRoute(req, { params: Promise.resolve({}) });
    expect(res.status).toBe(400);
  });

  it('answers 503 PROVIDER_NOT_CONFIGURED when Supabase Storage is selected without its URL and key', async () => {
    process.env.STORAGE_PROVIDER = 'supabase';
    resetConfig();
    const res = await upload({ site_id: mine.siteId, file: [new Blob(['a'], { type: 'text/plain' }), 'a.txt'] });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
  });
});
