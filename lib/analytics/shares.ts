import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { hashPassword, verifyPassword } from '@/lib/auth/passwords';
import { authSecret } from '@/lib/auth/secret';
import { ApiError } from '@/lib/core/errors';
import { isoTimestamp, uuidSchema } from '@/lib/core/schemas';
import { parseInput } from '@/lib/core/validate';
import { deleteShare, insertShare, listShares, shareByTokenHash, type ShareRow } from './shares-repo';

/**
 * Shared read-only dashboards: a link anyone can open (`/share/<token>`) that shows the site's
 * Overview and nothing else — no visitor, lead or setting — optionally behind a password. The
 * token is random (256 bits) and only its SHA-256 is stored, so the URL is shown once, when the
 * link is made; the password is stored as a password hash. Deleting a link revokes it: its URL
 * answers 404 from the next request on. The shared page is `noindex` (header and meta).
 */

export const SHARE_TOKEN_PREFIX = 'sgp_share_';
const TOKEN = /^sgp_share_[A-Za-z0-9_-]{43}$/;
export const SHARES_PER_SITE = 100;

export const createShareBodySchema = z.strictObject({
  label: z.string().trim().max(100, 'At most 100 characters').default('').describe('What the link is for ("Investors", "Agency")'),
  password: z
    .string()
    .min(8, 'At least 8 characters')
    .max(200, 'At most 200 characters')
    .optional()
    .describe('Asked before the dashboard shows (stored hashed); none: anyone with the link sees it'),
});
export const sharePathSchema = z.strictObject({
  site_id: uuidSchema.describe('Site id (UUID); must be the site of the credential'),
  link_id: uuidSchema.describe('Shared link id (UUID)'),
});

export const SharedLinkSchema = z.object({
  id: uuidSchema,
  label: z.string(),
  has_password: z.boolean().describe('Whether the page asks for a password'),
  created_at: isoTimestamp,
});
export type SharedLink = z.infer<typeof SharedLinkSchema>;
export const CreatedSharedLinkSchema = SharedLinkSchema.extend({
  token: z.string().describe('The secret part of the URL, shown this once (only its hash is kept)'),
  path: z.string().describe('The public page: /share/<token>, on this server'),
});
export const RevokedSharedLinkSchema = z.object({ id: uuidSchema, revoked: z.literal(true) });

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const present = (r: ShareRow): SharedLink => ({ id: r.id, label: r.label, has_password: r.password_hash !== null, created_at: r.created_at });

export async function sharedLinks(siteId: string): Promise<SharedLink[]> {
  return (await listShares(siteId)).map(present);
}

export async function createSharedLink(siteId: string, body: unknown): Promise<z.infer<typeof CreatedSharedLinkSchema>> {
  const b = parseInput(createShareBodySchema, body, 'body');
  if ((await listShares(siteId)).length >= SHARES_PER_SITE) {
    throw new ApiError('CONFLICT', `A site has at most ${SHARES_PER_SITE} shared links; revoke one first`);
  }
  const token = SHARE_TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const row = await insertShare(siteId, {
    label: b.label,
    tokenHash: hashToken(token),
    passwordHash: b.password === undefined ? null : await hashPassword(b.password),
  });
  return { ...present(row), token, path: `/share/${token}` };
}

export async function revokeSharedLink(siteId: string, id: string): Promise<{ id: string; revoked: true }> {
  if (!(await deleteShare(siteId, id))) throw new ApiError('NOT_FOUND', 'Shared link not found');
  return { id, revoked: true };
}

/** What the public page knows of a link: its site, and whether it asks for a password. */
export interface OpenedShare {
  id: string;
  siteId: string;
  siteName: string;
  label: string;
  hasPassword: boolean;
  /** The proof of the password, kept in a cookie by the browser that gave it. */
  proof: string | null;
}

/** The live link of a token (undefined: malformed, unknown or revoked — the page answers 404). */
export async function openShare(token: string): Promise<OpenedShare | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const row = await shareByTokenHash(hashToken(token));
  if (!row) return undefined;
  return {
    id: row.id,
    siteId: row.site_id,
    siteName: row.site_name,
    label: row.label,
    hasPassword: row.password_hash !== null,
    proof: row.password_hash === null ? null : proofOf(row.id, row.password_hash),
  };
}

/** A cookie value that says "this browser gave the password" — and stops saying it once the link or its password changes. */
const proofOf = (id: string, passwordHash: string) => createHmac('sha256', authSecret()).update(`share:${id}:${passwordHash}`).digest('base64url');

export function provesPassword(share: OpenedShare, cookie: string | undefined): boolean {
  if (!share.proof) return true;
  if (!cookie) return false;
  const a = Buffer.from(cookie);
  const b = Buffer.from(share.proof);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Checks a password given on the shared page; answers the proof to keep, or undefined when it is wrong. */
export async function unlockShare(token: string, password: string): Promise<{ share: OpenedShare; proof: string } | undefined> {
  if (!TOKEN.test(token)) return undefined;
  const row = await shareByTokenHash(hashToken(token));
  if (!row?.password_hash || !(await verifyPassword(password, row.password_hash))) return undefined;
  const share = (await openShare(token))!;
  return { share, proof: proofOf(row.id, row.password_hash) };
}

/** The cookie that holds a link's proof (scoped to its page). */
export const shareCookieName = (id: string) => `sgp_share_${id.replace(/-/g, '')}`;
