import { beforeAll, describe, expect, it } from 'vitest';
import { DELETE as deleteAnnotationRoute, PATCH as patchAnnotationRoute } from '@/app/sites/[site_id]/annotations/[annotation_id]/route';
import { GET as listAnnotationsRoute, POST as createAnnotationRoute } from '@/app/sites/[site_id]/annotations/route';
import { DELETE as revokeLinkRoute } from '@/app/sites/[site_id]/shared-links/[link_id]/route';
import { GET as listLinksRoute, POST as createLinkRoute } from '@/app/sites/[site_id]/shared-links/route';
import { openShare, provesPassword, unlockShare } from '@/lib/analytics/shares';
import { presenters } from '@/tests/helpers/auth-matrix';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';

/**
 * Annotations and shared dashboard links through their routes: what each stores and answers, bad
 * bodies, and that a site never reaches another's. (The shared auth cases run in
 * tests/integration/http/auth-matrix.test.ts; another site's ids in tests/integration/hostile.)
 */
let mine: Tenant;
let other: Tenant;
beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});

const as = (t: Tenant, key = t.key) => presenters.xApiKey(key);

const annotate = (t: Tenant, body: unknown) =>
  call(createAnnotationRoute, { method: 'POST', path: `/sites/${t.siteId}/annotations`, params: { site_id: t.siteId }, headers: as(t), body });
const listNotes = (t: Tenant, query: Record<string, string> = {}) =>
  call(listAnnotationsRoute, { path: `/sites/${t.siteId}/annotations`, params: { site_id: t.siteId }, headers: as(t, t.readKey), query });
const patchNote = (t: Tenant, id: string, body: unknown) =>
  call(patchAnnotationRoute, {
    method: 'PATCH',
    path: `/sites/${t.siteId}/annotations/${id}`,
    params: { site_id: t.siteId, annotation_id: id },
    headers: as(t),
    body,
  });
const deleteNote = (t: Tenant, id: string) =>
  call(deleteAnnotationRoute, {
    method: 'DELETE',
    path: `/sites/${t.siteId}/annotations/${id}`,
    params: { site_id: t.siteId, annotation_id: id },
    headers: as(t),
  });

describe('annotations', () => {
  it('adds, lists by period, changes and deletes notes of a site', async () => {
    const launch = await annotate(mine, { date: '2026-11-02', text: '  Launch  ' });
    expect(launch.status, JSON.stringify(launch.body)).toBe(201);
    expect(launch.body.data).toMatchObject({ date: '2026-11-02', text: 'Launch' });
    const mail = (await annotate(mine, { date: '2026-11-20', text: 'Newsletter sent' })).body.data;
    expect((await listNotes(mine)).body.data.map((n: any) => n.text)).toEqual(['Launch', 'Newsletter sent']);
    expect((await listNotes(mine, { from: '2026-11-10', to: '2026-11-30' })).body.data.map((n: any) => n.id)).toEqual([mail.id]);

    const changed = await patchNote(mine, mail.id, { date: '2026-11-21' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ id: mail.id, date: '2026-11-21', text: 'Newsletter sent' });
    expect((await deleteNote(mine, launch.body.data.id)).body.data).toEqual({ id: launch.body.data.id, deleted: true });
    expect((await listNotes(mine)).body.data.map((n: any) => n.date)).toEqual(['2026-11-21']);
    expect((await deleteNote(mine, launch.body.data.id)).status).toBe(404);
  });

  it('refuses a bad body or period with 400 naming the field, and writes nothing', async () => {
    const cases: [unknown, string][] = [
      [{ date: '2026-02-30', text: 'x' }, 'body.date'],
      [{ date: '2026-11-02', text: '   ' }, 'body.text'],
      [{ date: '2026-11-02', text: 'x'.repeat(281) }, 'body.text'],
      [{ date: '2026-11-02', text: 'x', color: 'red' }, 'body'],
    ];
    const before = (await listNotes(other)).body.data.length;
    for (const [body, path] of cases) {
      const res = await annotate(other, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
      expect(JSON.stringify(res.body.error.details)).toContain(path);
    }
    expect((await listNotes(other)).body.data.length).toBe(before);
    const backwards = await listNotes(other, { from: '2026-11-10', to: '2026-11-01' });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error.details.issues[0].path).toBe('query.from');
    const empty = await annotate(other, { date: '2026-11-02', text: 'x' });
    expect((await patchNote(other, empty.body.data.id, {})).status).toBe(400);
  });

  it("never reaches another site's notes", async () => {
    const theirs = (await annotate(other, { date: '2026-11-05', text: 'Their note' })).body.data;
    expect((await listNotes(mine)).body.data.map((n: any) => n.id)).not.toContain(theirs.id);
    expect((await patchNote(mine, theirs.id, { text: 'Mine now' })).status).toBe(404);
    expect((await deleteNote(mine, theirs.id)).status).toBe(404);
    expect((await listNotes(other)).body.data.find((n: any) => n.id === theirs.id)).toMatchObject({ text: 'Their note' });
  });
});

const makeLink = (t: Tenant, body: unknown, key = t.key) =>
  call(createLinkRoute, { method: 'POST', path: `/sites/${t.siteId}/shared-links`, params: { site_id: t.siteId }, headers: as(t, key), body });
const listLinks = (t: Tenant) => call(listLinksRoute, { path: `/sites/${t.siteId}/shared-links`, params: { site_id: t.siteId }, headers: as(t) });
const revoke = (t: Tenant, id: string) =>
  call(revokeLinkRoute, {
    method: 'DELETE',
    path: `/sites/${t.siteId}/shared-links/${id}`,
    params: { site_id: t.siteId, link_id: id },
    headers: as(t),
  });

describe('shared dashboard links', () => {
  it('makes a link whose token opens the site, lists it without the token, and revoked it opens nothing', async () => {
    const made = await makeLink(mine, { label: 'Investors' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const link = made.body.data;
    expect(link).toMatchObject({ label: 'Investors', has_password: false });
    expect(link.token).toMatch(/^sgp_share_[A-Za-z0-9_-]{43}$/);
    expect(link.path).toBe(`/share/${link.token}`);
    const listed = (await listLinks(mine)).body.data;
    expect(listed.find((l: any) => l.id === link.id)).toEqual({ id: link.id, label: 'Investors', has_password: false, created_at: link.created_at });
    expect(JSON.stringify(listed)).not.toContain(link.token);

    const opened = await openShare(link.token);
    expect(opened).toMatchObject({ id: link.id, siteId: mine.siteId, hasPassword: false });
    expect(provesPassword(opened!, undefined)).toBe(true);
    // A token one character off, or not a token at all, opens nothing.
    expect(await openShare(link.token.slice(0, -1) + (link.token.endsWith('A') ? 'B' : 'A'))).toBeUndefined();
    expect(await openShare('../../etc')).toBeUndefined();

    expect((await revoke(mine, link.id)).body.data).toEqual({ id: link.id, revoked: true });
    expect(await openShare(link.token)).toBeUndefined();
    expect((await revoke(mine, link.id)).status).toBe(404);
  });

  it('asks for the password of a protected link: a wrong one proves nothing, the right one leaves a proof for that link only', async () => {
    const link = (await makeLink(mine, { label: 'Board', password: 'open sesame 42' })).body.data;
    expect(link.has_password).toBe(true);
    const opened = (await openShare(link.token))!;
    expect(provesPassword(opened, undefined)).toBe(false);
    expect(provesPassword(opened, 'forged')).toBe(false);
    expect(await unlockShare(link.token, 'open sesame 41')).toBeUndefined();
    const unlocked = (await unlockShare(link.token, 'open sesame 42'))!;
    expect(provesPassword(opened, unlocked.proof)).toBe(true);
    // Another protected link does not take this proof.
    const another = (await makeLink(mine, { password: 'open sesame 42' })).body.data;
    expect(provesPassword((await openShare(another.token))!, unlocked.proof)).toBe(false);
  });

  it('refuses a short password or an unknown field, a read-only key, and another site', async () => {
    expect((await makeLink(mine, { password: 'short' })).body.error.details.issues[0].path).toBe('body.password');
    expect((await makeLink(mine, { label: 'x', expires: 'never' })).status).toBe(400);
    expect((await makeLink(mine, { label: 'x' }, mine.readKey)).status).toBe(403);
    const theirs = (await makeLink(other, { label: 'Theirs' })).body.data;
    expect((await listLinks(mine)).body.data.map((l: any) => l.id)).not.toContain(theirs.id);
    expect((await revoke(mine, theirs.id)).status).toBe(404);
    expect(await openShare(theirs.token)).toMatchObject({ siteId: other.siteId });
  });
});
