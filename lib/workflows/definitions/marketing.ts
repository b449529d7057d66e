import type { Activities } from '../activities';
import type { BuildCampaignsInput, BuildContentInput, BuildSegmentsInput } from '../bodies';
import { WorkflowFailedError, type WorkflowContext } from '../definition';
import { clusterLeads } from './clustering';

type Ctx = WorkflowContext<Activities>;

/** Clusters the site's open leads by shared attribute values and writes one segment per cluster. */
export async function buildSegments(ctx: Ctx, input: BuildSegmentsInput) {
  const a = ctx.activities;
  const leads = await a.listLeads(input.site_id, { statuses: ['new', 'contacted', 'qualified', 'converted'] });
  const plans = clusterLeads(leads, input.attributes, input.min_size);
  const saved = plans.length ? await a.saveSegments(input.site_id, plans) : [];
  return { leads_considered: leads.length, segments: saved };
}

/** Proposes segments from the ideal client profile (model). */
export async function buildSegmentsICP(ctx: Ctx, input: { site_id: string }) {
  const a = ctx.activities;
  const profile = await a.getSiteProfile(input.site_id);
  const proposal = await a.generateText(input.site_id, {
    purpose: 'segments-from-icp',
    system: 'You split an ideal client profile into 3-5 audience segments: name, description, audience.',
    prompt: JSON.stringify(profile),
  });
  return { proposal };
}

/** Drafts campaigns for one segment (model). */
export async function buildCampaigns(ctx: Ctx, input: BuildCampaignsInput) {
  const a = ctx.activities;
  const segment = await a.getSegment(input.site_id, input.segment_id);
  if (!segment) throw new WorkflowFailedError('SEGMENT_NOT_FOUND', `Segment ${input.segment_id} does not exist on this site`);
  const campaigns = await a.generateText(input.site_id, {
    purpose: 'campaigns-for-segment',
    system: 'You plan marketing campaigns for an audience segment: channel, message, call to action.',
    prompt: JSON.stringify(segment),
  });
  return { segment_id: segment.id, campaigns };
}

/** Drafts content on a topic, for a segment when given (model). */
export async function buildContent(ctx: Ctx, input: BuildContentInput) {
  const a = ctx.activities;
  const profile = await a.getSiteProfile(input.site_id);
  const segment = input.segment_id ? await a.getSegment(input.site_id, input.segment_id) : null;
  if (input.segment_id && !segment) throw new WorkflowFailedError('SEGMENT_NOT_FOUND', `Segment ${input.segment_id} does not exist on this site`);
  const draft = await a.generateText(input.site_id, {
    purpose: 'content-draft',
    system: 'You write marketing content in the brand voice of the business.',
    prompt: JSON.stringify({ topic: input.topic, business: profile, audience: segment }),
  });
  return { topic: input.topic, draft };
}
