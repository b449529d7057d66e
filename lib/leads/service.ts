import { findLead, leadsForBatch, toLead } from './repo';
import type { Lead } from './schema';

/** The site's lead as the API answers it, or undefined (also for one of another site). */
export const siteLead = async (siteId: string, leadId: string): Promise<Lead | undefined> => {
  const row = await findLead(siteId, leadId);
  return row ? toLead(row) : undefined;
};

export {
  assignLeadsTo,
  createLead,
  findLead,
  findLeadByEmail,
  LEAD_SEARCH_SORT_CAP,
  LEAD_SEARCH_WALK,
  leadsForBatch,
  listLeads,
  markLeadsLost,
  setLeadStatus,
  toLead,
  updateLead,
  upsertLeadByEmail,
  type LeadRow,
} from './repo';

/** Up to a batch of the site's leads matching `filter`, oldest first (the workflows' batches). */
export const batchOfLeads = async (siteId: string, filter: Parameters<typeof leadsForBatch>[1]): Promise<Lead[]> =>
  (await leadsForBatch(siteId, filter)).map(toLead);

/** The names of the site's leads among `ids` (the console names visits by their lead). */
export async function leadNames(siteId: string, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  return new Map((await leadsForBatch(siteId, { ids: wanted })).map((l) => [l.id, l.name]));
}

/** A site's custom lead properties (definitions; values live on each lead). */
export { createProperty, deleteProperty, listProperties, updateProperty } from './properties-repo';
