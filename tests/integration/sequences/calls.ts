import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { POST as createLeadRoute } from '@/app/api/agents/tools/leads/create/route';
import { POST as updateLeadRoute } from '@/app/api/agents/tools/leads/update/route';
import { POST as enrollRoute } from '@/app/api/sequences/[id]/enrollments/route';
import { POST as createRoute } from '@/app/api/sequences/route';
import { call, type Tenant } from '@/tests/helpers/harness';

/** The calls the sequence suites make through the real routes, with the tenant's API key. */
export const auth = (t: Tenant) => ({ authorization: `Bearer ${t.key}` });

/** An address at a domain of its own, so no per-domain limit is shared between leads. */
export const ownAddress = (local = 'lead') => `${local}-${randomBytes(4).toString('hex')}@${randomBytes(3).toString('hex')}.example.com`;

/** A new lead of the tenant's site (`POST /api/agents/tools/leads/create`). */
export async function createLead(t: Tenant, name: string, fields: { email?: string; company?: string } = {}) {
  const res = await call(createLeadRoute, {
    method: 'POST',
    path: '/api/agents/tools/leads/create',
    headers: auth(t),
    body: { site_id: t.siteId, name, email: fields.email ?? ownAddress(), ...(fields.company ? { company: fields.company } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.lead as { id: string; email: string };
}

/** Sets the lead's status (`POST /api/agents/tools/leads/update`). */
export async function setLeadStatus(t: Tenant, leadId: string, status: string) {
  const res = await call(updateLeadRoute, {
    method: 'POST',
    path: '/api/agents/tools/leads/update',
    headers: auth(t),
    body: { site_id: t.siteId, lead_id: leadId, status },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A new sequence of the tenant's site (`POST /api/sequences`); `body` without `site_id`. */
export async function createSequence(t: Tenant, body: Record<string, unknown>) {
  const res = await call(createRoute, { method: 'POST', path: '/api/sequences', headers: auth(t), body: { site_id: t.siteId, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; tracking: boolean };
}

/** Enrolls the leads; answers their enrollments in the order of the leads given (the answer lists them oldest lead first). */
export async function enrollLeads(t: Tenant, id: string, leadIds: string[]) {
  const res = await call(enrollRoute, {
    method: 'POST',
    path: `/api/sequences/${id}/enrollments`,
    params: { id },
    headers: auth(t),
    body: { site_id: t.siteId, lead_ids: leadIds },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const made = res.body.data.enrollments as { id: string; lead_id: string; next_send_at: string | null }[];
  return leadIds.map((leadId) => made.find((e) => e.lead_id === leadId)!);
}
