import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { POST as acceptRoute } from '@/app/api/invitations/accept/route';
import { POST as inviteRoute } from '@/app/api/sites/[site_id]/members/route';
import { getDb } from '@/lib/db/client';
import type { SiteRole } from '@/lib/members/permissions';
import { accountOutboxDir } from '@/lib/users/account-outbox';
import { call, createUser, type TestUser } from './harness';

/** The token of the latest invitation link mailed to `email`, read from the account outbox (no SMTP_URL). */
export async function invitationTokenFor(email: string): Promise<string> {
  const dir = accountOutboxDir();
  const files = (await readdir(dir)).filter((f) => f.endsWith('.eml')).sort();
  for (const file of files.reverse()) {
    const text = await readFile(path.join(dir, file), 'utf8');
    if (!text.includes(`To: ${email}\r\n`)) continue;
    const match = /invitations\/accept\?token=(\S+)/.exec(text);
    if (match) return decodeURIComponent(match[1]);
  }
  throw new Error(`no invitation mailed to ${email}`);
}

/** `owner` invites `email` to the site through the route; the invitation's id. */
export async function invite(owner: Pick<TestUser, 'auth'>, siteId: string, email: string, role: Exclude<SiteRole, 'owner'>): Promise<string> {
  const res = await call(inviteRoute, {
    method: 'POST',
    path: `/api/sites/${siteId}/members`,
    params: { site_id: siteId },
    headers: owner.auth,
    body: { email, role },
  });
  if (res.status !== 201) throw new Error(`invitation failed: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

/** A new account that joined the site with `role`: invited by `owner` through the API and accepted from the mailed link. */
export async function joinedMember(owner: Pick<TestUser, 'auth'>, siteId: string, role: Exclude<SiteRole, 'owner'>): Promise<TestUser> {
  const user = await createUser();
  await invite(owner, siteId, user.email, role);
  const res = await call(acceptRoute, {
    method: 'POST',
    path: '/api/invitations/accept',
    headers: user.auth,
    body: { token: await invitationTokenFor(user.email) },
  });
  if (res.status !== 200) throw new Error(`accept failed: ${JSON.stringify(res.body)}`);
  return user;
}

/** The stored membership rows of a site (what the API's answers must agree with). */
export async function storedMembers(siteId: string): Promise<{ user_id: string; role: SiteRole }[]> {
  const db = await getDb();
  const result = (await db.execute(sql`select user_id, role from site_members where site_id = ${siteId} order by created_at`)) as unknown as {
    rows: { user_id: string; role: SiteRole }[];
  };
  return result.rows;
}
