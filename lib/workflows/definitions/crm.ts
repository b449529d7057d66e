import type { Activities, LeadSnapshot, MiningTarget } from '../activities';
import type {
  AnalyzeSiteInput,
  AssignLeadsInput,
  EnrichLeadInput,
  IdealClientProfileMiningInput,
  KeyAccountGenerationInput,
  LeadFollowUpInput,
  LeadInvalidationInput,
  LeadResearchInput,
} from '../bodies';
import { WorkflowFailedError, type WorkflowContext } from '../definition';
import { invalidReason } from './lead-checks';

type Ctx = WorkflowContext<Activities>;
const ACTIVE: LeadSnapshot['status'][] = ['new', 'contacted', 'qualified'];

/** Mines leads for the ICP: the model turns the site's profile into search terms, the people-data provider resolves them. */
export async function leadGeneration(ctx: Ctx, input: { site_id: string }) {
  const a = ctx.activities;
  const profile = await a.getSiteProfile(input.site_id);
  const terms = await a.generateText(input.site_id, {
    purpose: 'lead-generation-criteria',
    system: 'You write people-search criteria. Answer with one search term per line (industries, job titles, locations).',
    prompt: `Business profile of ${profile.name} (${profile.domain ?? 'no domain'}):\n${JSON.stringify(profile.settings)}`,
  });
  const queries = terms
    .split('\n')
    .map((t) => t.trim())
    .filter(Boolean)
    .slice(0, 10);
  const categories = [];
  for (const query of queries) categories.push({ query, matches: await a.searchPeopleCategories(input.site_id, query) });
  return { criteria: queries, categories };
}

/**
 * Drafts a follow-up to one lead with the model, sends it through the email port (recorded in the
 * site's email log with the lead and this run), then marks the lead contacted.
 */
export async function leadFollowUp(ctx: Ctx, input: LeadFollowUpInput) {
  const a = ctx.activities;
  const lead = await a.getLead(input.site_id, input.lead_id);
  if (!lead) throw new WorkflowFailedError('LEAD_NOT_FOUND', `Lead ${input.lead_id} does not exist on this site`);
  if (!lead.email.trim()) throw new WorkflowFailedError('LEAD_HAS_NO_EMAIL', `Lead ${lead.id} has no email address to write to`);
  const profile = await a.getSiteProfile(input.site_id);
  const draft = await a.generateText(input.site_id, {
    purpose: 'lead-follow-up',
    system:
      `You write short, friendly sales follow-up emails on behalf of ${profile.name}. ` +
      'Answer with the subject on the first line, then the body. No placeholders such as [Name].',
    prompt: `Lead: ${lead.name}, ${lead.position ?? ''} at ${lead.company ?? 'unknown company'}. Notes: ${lead.notes ?? 'none'}`,
  });
  const [first = '', ...rest] = draft.trim().split('\n');
  const subject = first
    .replace(/^\s*subject\s*:\s*/i, '')
    .trim()
    .slice(0, 200);
  const text = rest.join('\n').trim();
  if (!subject || !text) throw new WorkflowFailedError('DRAFT_EMPTY', 'the model answered without a subject line and a body; nothing was sent');
  const sent = await a.sendEmail(input.site_id, { to: lead.email, subject, text, lead_id: lead.id, workflow_id: ctx.workflowId });
  const status = await a.markLeadContacted(input.site_id, lead.id);
  return { lead_id: lead.id, email_id: sent.email_id, message_id: sent.message_id, transport: sent.transport, subject, lead_status: status };
}

/** Researches a set of leads with the model and returns a brief per lead. */
export async function leadResearch(ctx: Ctx, input: LeadResearchInput) {
  const a = ctx.activities;
  const leads = input.lead_ids
    ? await a.listLeads(input.site_id, { ids: input.lead_ids })
    : (await a.listLeads(input.site_id, { statuses: ['new'] })).slice(0, 20);
  if (leads.length === 0) return { researched: 0, briefs: [] };
  const briefs = [];
  for (const lead of leads) {
    const brief = await a.generateText(input.site_id, {
      purpose: 'lead-research',
      system: 'You research a sales lead from what is known and list talking points.',
      prompt: JSON.stringify({ name: lead.name, position: lead.position, company: lead.company, notes: lead.notes }),
    });
    briefs.push({ lead_id: lead.id, brief });
  }
  return { researched: briefs.length, briefs };
}

/** Fills a person's missing contact fields from the people-data provider, with the model reading the match. */
export async function enrichLead(ctx: Ctx, input: EnrichLeadInput) {
  const a = ctx.activities;
  const matches = await a.searchPeopleCategories(input.site_id, input.company_name);
  const enrichment = await a.generateText(input.site_id, {
    purpose: 'lead-enrichment',
    system: 'You fill missing contact fields of a person. Answer JSON {position, company, location}.',
    prompt: JSON.stringify({ linkedin_profile: input.linkedin_profile, person_id: input.person_id, company_name: input.company_name, matches }),
  });
  return { person_id: input.person_id, enrichment };
}

/** Marks leads whose contact data cannot be used (bad address, reserved or disposable domain, bad phone) as lost, with the reason in their notes. */
export async function leadInvalidation(ctx: Ctx, input: LeadInvalidationInput) {
  const a = ctx.activities;
  const leads = await a.listLeads(input.site_id, { statuses: ACTIVE });
  const invalid = leads
    .map((lead) => ({ lead_id: lead.id, email: lead.email, reason: invalidReason(lead) }))
    .filter((l): l is { lead_id: string; email: string; reason: string } => l.reason !== null);
  const marked =
    input.dry_run || invalid.length === 0
      ? 0
      : await a.markLeadsInvalid(
          input.site_id,
          invalid.map(({ lead_id, reason }) => ({ lead_id, reason })),
        );
  return { checked: leads.length, invalid: invalid.length, marked, dry_run: input.dry_run, leads: invalid };
}

/** Shares unassigned leads between the given people, least loaded first (round robin on ties). */
export async function assignLeads(ctx: Ctx, input: AssignLeadsInput) {
  const a = ctx.activities;
  const leads = await a.listLeads(input.site_id, { statuses: input.statuses });
  const load = new Map(input.assignee_ids.map((id) => [id, 0]));
  for (const lead of leads) if (lead.assignee_id && load.has(lead.assignee_id)) load.set(lead.assignee_id, load.get(lead.assignee_id)! + 1);
  const assignments: { lead_id: string; assignee_id: string }[] = [];
  for (const lead of leads.filter((l) => !l.assignee_id)) {
    let best = input.assignee_ids[0];
    for (const id of input.assignee_ids) if (load.get(id)! < load.get(best)!) best = id;
    load.set(best, load.get(best)! + 1);
    assignments.push({ lead_id: lead.id, assignee_id: best });
  }
  const assigned = assignments.length ? await a.assignLeads(input.site_id, assignments) : 0;
  return { assigned, load: Object.fromEntries(load), assignments };
}

/** Fetches a page (SSRF-guarded) and checks it against the terms of the site's business profile. */
export async function analyzeSite(ctx: Ctx, input: AnalyzeSiteInput) {
  const a = ctx.activities;
  const page = await a.fetchPage(input.site_id, input.url);
  const profile = await a.getSiteProfile(input.site_id);
  const terms = [...new Set(stringsOf(profile.settings).flatMap((s) => s.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []))].sort();
  const text = [page.title, page.description, ...page.headings.map((h) => h.text)].join(' ').toLowerCase();
  const matched = terms.filter((t) => text.includes(t));
  return { page, icp: { terms_checked: terms.length, terms_matched: matched } };
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/** Pages a run may fetch per role query (the provider serves at most 500). */
const MINING_MAX_PAGE = 500;

type MiningStatus = 'completed' | 'exhausted' | 'out_of_credits';

/**
 * Mines leads for the site's role queries (one, or every unfinished one): pages through the
 * people-data provider from where the query stopped, skips people the site already considered,
 * finds a work email when the search result has none, and creates leads (segment and origin
 * from the role query) until the query's `total_targets`. Progress is written after each page.
 * When the site's credits run out the run ends cleanly, reporting `out_of_credits`. (A run that
 * fails keeps the query `mining` with `last_workflow_id` naming it; the next run resumes from `next_page`.)
 */
export async function idealClientProfileMining(ctx: Ctx, input: IdealClientProfileMiningInput) {
  const a = ctx.activities;
  const targets = await a.miningTargets(input.site_id, input.role_query_id ?? null);
  const results: Awaited<ReturnType<typeof mineRoleQuery>>[] = [];
  for (const target of targets) {
    const result = await mineRoleQuery(ctx, input.site_id, target);
    results.push(result);
    if (result.status === 'out_of_credits') break;
  }
  const outOfCredits = results.some((r) => r.status === 'out_of_credits');
  return {
    role_queries: results,
    leads_created: results.reduce((n, r) => n + r.leads_created, 0),
    stopped_reason: outOfCredits ? ('insufficient_credits' as const) : null,
  };
}

async function mineRoleQuery(ctx: Ctx, siteId: string, target: MiningTarget) {
  const a = ctx.activities;
  const tally = { leads_created: 0, duplicates: 0, without_email: 0, pages_fetched: 0 };
  let total = target.leads_created;
  let page = target.next_page;
  let status: MiningStatus = 'completed';
  let unrecordedPages = 0;
  if (total >= target.total_targets) return { role_query_id: target.id, status, ...tally, total_leads: total, total_targets: target.total_targets };
  await a.recordMiningProgress(siteId, target.id, { status: 'mining', workflow_id: ctx.workflowId });
  pages: while (total < target.total_targets) {
    if (page > MINING_MAX_PAGE) {
      status = 'exhausted';
      break;
    }
    const found = await a.searchPeoplePage(siteId, { query: target.query, page, workflow_id: ctx.workflowId });
    if (found.outcome === 'insufficient_credits') {
      status = 'out_of_credits';
      break;
    }
    tally.pages_fetched += 1;
    unrecordedPages += 1;
    if (found.people.length === 0) {
      status = 'exhausted';
      break;
    }
    const unseen = new Set(
      await a.unseenPeople(
        siteId,
        found.people.map((p) => p.person_id),
      ),
    );
    for (const person of found.people) {
      if (!unseen.delete(person.person_id)) continue;
      let email = person.email;
      if (!email) {
        const lookup = await a.findWorkEmail(siteId, { person_id: person.person_id, workflow_id: ctx.workflowId });
        if (lookup.outcome === 'insufficient_credits') {
          status = 'out_of_credits';
          break pages;
        }
        email = lookup.email;
      }
      const saved = await a.saveMinedLead(siteId, target.id, { ...person, email, query_name: target.name });
      if (saved.outcome === 'lead') tally.leads_created += 1;
      if (saved.outcome === 'duplicate') tally.duplicates += 1;
      if (saved.outcome === 'no_email') tally.without_email += 1;
      total = saved.leads_created;
      if (total >= saved.total_targets) break pages;
    }
    page += 1;
    await a.recordMiningProgress(siteId, target.id, { next_page: page, pages_fetched: unrecordedPages });
    unrecordedPages = 0;
  }
  await a.recordMiningProgress(siteId, target.id, { status, pages_fetched: unrecordedPages });
  return { role_query_id: target.id, status, ...tally, total_leads: total, total_targets: target.total_targets };
}

/** Ranks the companies of the site's open leads into a key-account list (lead count, scores, progress). */
export async function keyAccountGeneration(ctx: Ctx, input: KeyAccountGenerationInput) {
  const leads = await ctx.activities.listLeads(input.site_id, { statuses: ['new', 'contacted', 'qualified', 'converted'] });
  const accounts = new Map<string, { company: string; leads: number; score: number; qualified: number; lead_ids: string[] }>();
  for (const lead of leads) {
    const company = lead.company?.trim();
    if (!company) continue;
    const key = company.toLowerCase();
    const account = accounts.get(key) ?? { company, leads: 0, score: 0, qualified: 0, lead_ids: [] };
    account.leads += 1;
    account.score += (lead.lead_score ?? 0) + 10 + (lead.status === 'qualified' || lead.status === 'converted' ? 25 : 0);
    if (lead.status === 'qualified' || lead.status === 'converted') account.qualified += 1;
    account.lead_ids.push(lead.id);
    accounts.set(key, account);
  }
  const ranked = [...accounts.values()].sort((x, y) => y.score - x.score || x.company.localeCompare(y.company)).slice(0, input.limit);
  return { accounts: ranked, companies_considered: accounts.size };
}
