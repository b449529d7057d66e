import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantCredits } from '@/lib/finder/credits-repo';
import { createLead } from '@/lib/leads/repo';
import { createLeadInputSchema } from '@/lib/leads/schema';
import { createRequirement } from '@/lib/requirements/repo';
import { createRequirementInputSchema } from '@/lib/requirements/schema';
import { createSegment } from '@/lib/segments/repo';
import { createSegmentInputSchema } from '@/lib/segments/schema';
import { createSequenceBodySchema } from '@/lib/sequences/schema';
import { createSequence, enroll } from '@/lib/sequences/service';
import type { AnyTool } from '@/lib/tools/define-tool';
import { tools } from '@/lib/tools/registry';
import { authMatrix, presenters } from '@/tests/helpers/auth-matrix';
import { createTenant, createVisitor, uniqueEmail, type Tenant } from '@/tests/helpers/harness';
import { useFinderStandIns } from '@/tests/helpers/people-data-standin';
import { normalized, startMcp, viaMcp, viaRest, withoutRequestId } from '@/tests/helpers/tools';

/**
 * Every tool of the registry: the shared auth matrix on its REST route (Bearer and x-api-key),
 * the same result through REST and through the official MCP client, and a validation table
 * whose errors are identical both ways.
 */
type Args = Record<string, unknown>;
interface ToolCase {
  /** A valid call for the tenant (creating what it needs first). */
  valid(t: Tenant): Promise<Args>;
  /** Invalid arguments (site_id added) and why. */
  invalid: [string, Args][];
  /** The REST status of the valid call. */
  status?: number;
  /** What must be equal between the REST and the MCP answer, when not all of it (default: `normalized`). */
  comparable?: (body: any) => unknown;
  /** The valid call uses up what it names (a merge deletes the other lead): the MCP call gets fresh arguments. */
  consumes?: boolean;
}

/** A paid finder answer without the balance after it (two calls in a row leave different balances). */
const withoutBalance = (body: any) => normalized({ ...body, credits: { ...body.credits, balance: '<balance>' } });

const lead = async (t: Tenant) =>
  createLead(t.siteId, createLeadInputSchema.parse({ site_id: t.siteId, name: 'Grace Hopper', email: uniqueEmail(), company: 'Navy' }));
const segment = async (t: Tenant) => createSegment(t.siteId, createSegmentInputSchema.parse({ site_id: t.siteId, name: 'SMB' }));
const sequenceOf = async (t: Tenant) =>
  (
    await createSequence(
      t.siteId,
      createSequenceBodySchema.parse({ site_id: t.siteId, name: 'Welcome', steps: [{ delay_minutes: 60, subject: 'Hi', body: 'Hello.' }] }),
    )
  ).id;
const requirement = async (t: Tenant) => createRequirement(t.siteId, createRequirementInputSchema.parse({ site_id: t.siteId, title: 'Write posts' }));

const CASES: Record<string, ToolCase> = {
  createLead: {
    status: 201,
    valid: async (t) => ({ site_id: t.siteId, name: 'Ada Lovelace', email: uniqueEmail(), company: 'Analytical', lead_score: 80 }),
    invalid: [
      ['missing email', { name: 'Ada' }],
      ['missing name', { email: 'ada@example.com' }],
      ['malformed email', { name: 'Ada', email: 'not-an-email' }],
      ['unknown status', { name: 'Ada', email: 'ada@example.com', status: 'hot' }],
      ['lead_score above 100', { name: 'Ada', email: 'ada@example.com', lead_score: 101 }],
      ['fractional lead_score', { name: 'Ada', email: 'ada@example.com', lead_score: 5.5 }],
      ['segment_id not a UUID', { name: 'Ada', email: 'ada@example.com', segment_id: 'seg-1' }],
      ['unknown field', { name: 'Ada', email: 'ada@example.com', owner: 'me' }],
    ],
  },
  getLeads: {
    valid: async (t) => ({ site_id: t.siteId, search: 'hopper', limit: 10 }),
    invalid: [
      ['limit above 500', { limit: 501 }],
      ['limit 0', { limit: 0 }],
      ['negative offset', { offset: -1 }],
      ['sort_by outside the whitelist', { sort_by: 'password' }],
      ['sort_order other than asc/desc', { sort_order: 'up' }],
      ['limit as a string', { limit: '10' }],
      ['control character in search', { search: 'a\u0001b' }],
    ],
  },
  updateLead: {
    valid: async (t) => ({ site_id: t.siteId, lead_id: (await lead(t)).id, company: 'Remington Rand', phone: null }),
    invalid: [
      ['missing lead_id', { name: 'x' }],
      ['lead_id not a UUID', { lead_id: '42', name: 'x' }],
      ['no field to change', { lead_id: randomUUID() }],
      ['empty name', { lead_id: randomUUID(), name: '' }],
      ['unknown status', { lead_id: randomUUID(), status: 'won' }],
    ],
  },
  qualifyLead: {
    valid: async (t) => ({ site_id: t.siteId, lead_id: (await lead(t)).id, status: 'qualified' }),
    invalid: [
      ['missing status', { lead_id: randomUUID() }],
      ['unknown status', { lead_id: randomUUID(), status: 'won' }],
      ['missing lead_id', { status: 'qualified' }],
    ],
  },
  identifyLead: {
    valid: async (t) => ({ site_id: t.siteId, visitor_id: await createVisitor(t), lead_id: (await lead(t)).id }),
    invalid: [
      ['missing visitor_id', { lead_id: randomUUID() }],
      ['visitor_id not a UUID', { visitor_id: 'v1' }],
      ['both lead_id and email', { visitor_id: randomUUID(), lead_id: randomUUID(), email: 'a@example.com' }],
    ],
  },
  createSegment: {
    status: 201,
    valid: async (t) => ({ site_id: t.siteId, name: 'EU SMB', size: 1200, estimated_value: 5000.5, language: 'es-MX', attributes: { region: 'EU' } }),
    invalid: [
      ['missing name', { size: 1 }],
      ['negative size', { name: 'x', size: -1 }],
      ['fractional size', { name: 'x', size: 1.5 }],
      ['negative estimated_value', { name: 'x', estimated_value: -1 }],
      ['language not a BCP 47 tag', { name: 'x', language: 'english!' }],
      ['is_active not a boolean', { name: 'x', is_active: 'yes' }],
      ['attributes not an object', { name: 'x', attributes: [1, 2] }],
    ],
  },
  getSegments: {
    valid: async (t) => {
      await segment(t);
      return { site_id: t.siteId, is_active: true };
    },
    invalid: [
      ['limit above 500', { limit: 501 }],
      ['unknown field', { search: 'x' }],
    ],
  },
  updateSegment: {
    valid: async (t) => ({ site_id: t.siteId, segment_id: (await segment(t)).segment_id, is_active: false, size: 10 }),
    invalid: [
      ['no field to change', { segment_id: randomUUID() }],
      ['missing segment_id', { name: 'x' }],
      ['is_active null', { segment_id: randomUUID(), is_active: null }],
    ],
  },
  getLeadProperties: {
    valid: async (t) => ({ site_id: t.siteId }),
    invalid: [['unknown field', { limit: 5 }]],
  },
  addLeadNote: {
    status: 201,
    valid: async (t) => ({ site_id: t.siteId, lead_id: (await lead(t)).id, body: 'Called: wants a demo' }),
    invalid: [
      ['missing body', { lead_id: randomUUID() }],
      ['empty body', { lead_id: randomUUID(), body: '  ' }],
      ['lead_id not a UUID', { lead_id: 'l1', body: 'x' }],
    ],
  },
  getLeadNotes: {
    valid: async (t) => ({ site_id: t.siteId, lead_id: (await lead(t)).id, limit: 10 }),
    invalid: [
      ['missing lead_id', {}],
      ['limit above 100', { lead_id: randomUUID(), limit: 101 }],
    ],
  },
  getLeadTimeline: {
    valid: async (t) => ({ site_id: t.siteId, lead_id: (await lead(t)).id, limit: 10 }),
    invalid: [
      ['missing lead_id', {}],
      ['unknown type', { lead_id: randomUUID(), types: ['call'] }],
      ['limit 0', { lead_id: randomUUID(), limit: 0 }],
    ],
  },
  mergeLeads: {
    consumes: true,
    valid: async (t) => ({ site_id: t.siteId, lead_id: (await lead(t)).id, other_lead_id: (await lead(t)).id }),
    invalid: [
      ['missing other_lead_id', { lead_id: randomUUID() }],
      ['unknown field choice', { lead_id: randomUUID(), other_lead_id: randomUUID(), fields: { name: 'both' } }],
    ],
  },
  getSequences: {
    valid: async (t) => {
      await sequenceOf(t);
      return { site_id: t.siteId };
    },
    invalid: [['unknown field', { limit: 5 }]],
  },
  getSequence: {
    valid: async (t) => ({ site_id: t.siteId, sequence_id: await sequenceOf(t), limit: 10 }),
    invalid: [
      ['missing sequence_id', {}],
      ['sequence_id not a UUID', { sequence_id: 'seq-1' }],
      ['unknown enrollment_status', { sequence_id: randomUUID(), enrollment_status: 'done' }],
      ['limit as a string', { sequence_id: randomUUID(), limit: '10' }],
    ],
  },
  createSequence: {
    status: 201,
    valid: async (t) => ({
      site_id: t.siteId,
      name: 'Welcome',
      steps: [{ delay_minutes: 0, subject: 'Hi {{first_name|there}}', body: 'Hello from {{site_name}}.' }],
      send_window: { days: [1, 2, 3, 4, 5], start_hour: 9, end_hour: 17 },
      tracking: false,
    }),
    invalid: [
      ['missing steps', { name: 'x' }],
      ['no steps', { name: 'x', steps: [] }],
      ['unknown variable', { name: 'x', steps: [{ delay_minutes: 0, subject: 'Hi {{nickname}}', body: 'x' }] }],
      ['negative delay', { name: 'x', steps: [{ delay_minutes: -1, subject: 'Hi', body: 'x' }] }],
      [
        'window ending before it starts',
        { name: 'x', steps: [{ delay_minutes: 0, subject: 'Hi', body: 'x' }], send_window: { days: [1], start_hour: 10, end_hour: 9 } },
      ],
    ],
  },
  updateSequence: {
    valid: async (t) => ({ site_id: t.siteId, sequence_id: await sequenceOf(t), status: 'paused' }),
    invalid: [
      ['missing sequence_id', { status: 'paused' }],
      ['unknown status', { sequence_id: randomUUID(), status: 'stopped' }],
      ['tracking not a boolean', { sequence_id: randomUUID(), tracking: 'yes' }],
    ],
  },
  enrollInSequence: {
    valid: async (t) => ({ site_id: t.siteId, sequence_id: await sequenceOf(t), lead_ids: [(await lead(t)).id] }),
    invalid: [
      ['neither lead_ids nor segment_id', { sequence_id: randomUUID() }],
      ['both lead_ids and segment_id', { sequence_id: randomUUID(), lead_ids: [randomUUID()], segment_id: randomUUID() }],
      ['lead id not a UUID', { sequence_id: randomUUID(), lead_ids: ['x'] }],
      ['empty lead_ids', { sequence_id: randomUUID(), lead_ids: [] }],
    ],
    // The same call again finds the lead enrolled (once per sequence): the leads are accounted for either way.
    comparable: (body) => ({ success: body.success, leads: body.result.enrolled + body.result.already_enrolled }),
  },
  unenrollFromSequence: {
    valid: async (t) => {
      const [sequence_id, l] = await Promise.all([sequenceOf(t), lead(t)]);
      await enroll(t.siteId, sequence_id, { site_id: t.siteId, lead_ids: [l.id] });
      return { site_id: t.siteId, sequence_id, lead_id: l.id };
    },
    invalid: [
      ['missing lead_id', { sequence_id: randomUUID() }],
      ['lead_id not a UUID', { sequence_id: randomUUID(), lead_id: 'x' }],
    ],
  },
  createRequirement: {
    status: 201,
    valid: async (t) => ({
      site_id: t.siteId,
      title: 'Write 3 posts',
      type: 'content',
      priority: 'high',
      budget: 50_000,
      instructions: 'Use the blog tool',
    }),
    invalid: [
      ['missing title', { priority: 'high' }],
      ['unknown priority', { title: 'x', priority: 'urgent' }],
      ['unknown status', { title: 'x', status: 'doing' }],
      ['unknown completion_status', { title: 'x', completion_status: 'maybe' }],
      ['negative budget', { title: 'x', budget: -5 }],
      ['fractional budget', { title: 'x', budget: 1.5 }],
    ],
  },
  getRequirements: {
    valid: async (t) => {
      await requirement(t);
      return { site_id: t.siteId, status: 'backlog' };
    },
    invalid: [
      ['unknown status', { status: 'doing' }],
      ['limit above 500', { limit: 1000 }],
    ],
  },
  updateRequirement: {
    valid: async (t) => ({ site_id: t.siteId, requirement_id: (await requirement(t)).requirement_id, status: 'in-progress', budget: null }),
    invalid: [
      ['missing requirement_id', { status: 'done' }],
      ['unknown status', { requirement_id: randomUUID(), status: 'finished' }],
      ['no field to change', { requirement_id: randomUUID() }],
    ],
  },
  updateSiteSettings: {
    valid: async (t) => ({ site_id: t.siteId, action: 'update', industry: 'Software', swot: { strengths: ['Fast'] } }),
    invalid: [
      ['missing action', { industry: 'x' }],
      ['unknown action', { action: 'delete' }],
      ['unknown top-level field', { action: 'update', favourite_color: 'blue' }],
      ['unknown nested field', { action: 'update', branding: { voice_and_tone: { mood: 'happy' } } }],
      ['settings fields with get', { action: 'get', industry: 'x' }],
      ['unknown brand archetype', { action: 'update', branding: { brand_archetype: 'wizard' } }],
      ['color not a hex code', { action: 'update', branding: { color_palette: { primary: 'blue' } } }],
      ['swot list not an array', { action: 'update', swot: { strengths: 'fast' } }],
      ['unknown journey stage', { action: 'update', customer_journey: { onboarding: { metrics: [] } } }],
      ['product without a name', { action: 'update', products: [{ price: 10 }] }],
    ],
  },
  getFinderCategoryIds: {
    valid: async (t) => ({ site_id: t.siteId, query: 'software' }),
    invalid: [
      ['missing query', {}],
      ['empty query', { query: '  ' }],
      ['unknown field', { query: 'x', limit: 5 }],
    ],
  },
  analyzeICPTotalCount: {
    valid: async (t) => ({ site_id: t.siteId, query: { role_title: 'sales', person_locations: [2514256] } }),
    invalid: [
      ['missing query', {}],
      ['an empty query', { query: {} }],
      ['a parameter name that is not snake_case', { query: { 'Role Title': 'x' } }],
      ['a query that is not an object', { query: 'sales' }],
      ['unknown field', { query: { role_title: 'x' }, page: 2 }],
    ],
    comparable: withoutBalance,
  },
  createIcpMining: {
    valid: async (t) => ({ site_id: t.siteId, name: 'Sales heads', total_targets: 5, query: { role_title: `sales ${randomUUID().slice(0, 8)}` } }),
    invalid: [
      ['missing name', { total_targets: 5, query: { role_title: 'x' } }],
      ['missing total_targets', { name: 'x', query: { role_title: 'x' } }],
      ['total_targets over 10,000', { name: 'x', total_targets: 10_001, query: { role_title: 'x' } }],
      ['segment_id not a UUID', { name: 'x', total_targets: 5, segment_id: 'nope', query: { role_title: 'x' } }],
      ['unknown field', { name: 'x', total_targets: 5, query: { role_title: 'x' }, extra: true }],
    ],
    status: 201,
    // Each call mines a fresh query: compare the shape of the answer, not the query itself.
    comparable: (body: any) => ({
      success: body.success,
      created: body.created,
      runs: body.run_ids.length,
      role_query: {
        name: body.role_query.name,
        total_targets: body.role_query.total_targets,
        status: body.role_query.status,
        leads_created: body.role_query.leads_created,
      },
    }),
  },
  searchRegionVenues: {
    valid: async (t) => ({ site_id: t.siteId, region: 'Madrid, Spain', query: 'coworking', limit: 3 }),
    invalid: [
      ['missing region', { query: 'coworking' }],
      ['limit over 50', { region: 'Madrid', query: 'coworking', limit: 51 }],
      ['a one-character query', { region: 'Madrid', query: 'x' }],
      ['unknown field', { region: 'Madrid', query: 'coworking', radius: 5 }],
    ],
    comparable: withoutBalance,
  },
};

let mine: Tenant;
let other: Tenant;
let mcp: Awaited<ReturnType<typeof startMcp>>;
let client: Client;
let finder: { close(): Promise<void> } | undefined;

beforeAll(async () => {
  finder = await useFinderStandIns('contract');
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
  // The paid finder tools spend the site's credits.
  await grantCredits(mine.siteId, 10_000);
  mcp = await startMcp();
  client = await mcp.connect(presenters.bearer(mine.key));
});

afterAll(async () => {
  await mcp?.close();
  await finder?.close();
});

it('covers every tool of the registry', () => {
  expect(Object.keys(CASES).sort()).toEqual(tools.map((t) => t.name).sort());
});

it('lists the same tools over MCP as the registry, with their schemas', async () => {
  const { tools: listed } = await client.listTools();
  expect(listed.map((t) => t.name)).toEqual(tools.map((t) => t.name));
  for (const t of listed) {
    expect(t.inputSchema.type).toBe('object');
    expect(t.inputSchema.required).toContain('site_id');
    expect(t.outputSchema?.required).toContain('success');
  }
});

describe.each(tools.map((t) => [t.name, t] as [string, AnyTool]))('%s', (name, tool) => {
  const c = CASES[name];
  const write = tool.scope === 'write' || name === 'updateSiteSettings';

  for (const [label, present] of [
    ['Authorization: Bearer', presenters.bearer],
    ['x-api-key', presenters.xApiKey],
  ] as const) {
    describe(`REST auth (${label})`, () => {
      authMatrix({
        tenants: () => ({ mine, other }),
        present,
        write,
        send: async (headers, siteId) => viaRest(tool, headers, { ...(await c.valid(mine)), site_id: siteId }),
      });
    });
  }

  it('gives the same result through REST and MCP', async () => {
    const args = await c.valid(mine);
    const rest = await viaRest(tool, presenters.bearer(mine.key), args);
    expect(rest.status, JSON.stringify(rest.body)).toBe(c.status ?? 200);
    expect(rest.body.success).toBe(true);
    // The same arguments again (a create gets fresh ones: a lead's email is unique per site).
    const viaProtocol = await viaMcp(client, name, tool.creates || c.consumes ? await c.valid(mine) : args);
    expect(viaProtocol.status).toBe('ok');
    const comparable = c.comparable ?? normalized;
    expect(comparable(viaProtocol.body)).toEqual(comparable(rest.body));
  });

  it.each(c.invalid)('refuses %s with 400, identically through REST and MCP', async (_why, args) => {
    const body = { site_id: mine.siteId, ...args };
    const rest = await viaRest(tool, presenters.bearer(mine.key), body);
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({
      success: false,
      error: { code: 'INVALID_REQUEST', message: expect.any(String), request_id: expect.any(String) },
    });
    const viaProtocol = await viaMcp(client, name, body);
    expect(viaProtocol.status).toBe(400);
    expect(withoutRequestId(viaProtocol.body)).toEqual(withoutRequestId(rest.body));
  });

  it("refuses another site's site_id with the same 403 both ways", async () => {
    const body = { ...(await c.valid(mine)), site_id: other.siteId };
    const rest = await viaRest(tool, presenters.bearer(mine.key), body);
    expect(rest.status).toBe(403);
    const viaProtocol = await viaMcp(client, name, body);
    expect(viaProtocol.status).toBe(403);
    expect(withoutRequestId(viaProtocol.body)).toEqual(withoutRequestId(rest.body));
  });
});
