import { isForeignKeyViolation } from '@/lib/db/errors';
import { found, notFound } from '@/lib/http/errors';
import { findLead, findLeadByEmail, findLeadOfVisitor, linkVisitorToLead, toLead } from './repo';
import type { IdentifyLeadInput, Lead } from './schema';

/**
 * leads/identify: with `lead_id` or `email`, links the visitor to that lead of the site
 * (replacing an earlier link) and returns it; without either, returns the lead the visitor is
 * linked to. A lead of another site, or an unlinked visitor, is a 404.
 */
export async function identifyLead(siteId: string, input: IdentifyLeadInput): Promise<{ lead: Lead; visitor_id: string }> {
  const visitorId = input.visitor_id.toLowerCase();
  if (!input.lead_id && !input.email) {
    const linked = await findLeadOfVisitor(siteId, visitorId);
    return { lead: toLead(found(linked, 'Lead for this visitor')), visitor_id: visitorId };
  }
  const lead = found(input.lead_id ? await findLead(siteId, input.lead_id) : await findLeadByEmail(siteId, input.email!), 'Lead');
  try {
    await linkVisitorToLead(siteId, visitorId, lead.id);
  } catch (error) {
    // The lead was deleted between the read and the link.
    if (isForeignKeyViolation(error)) throw notFound('Lead');
    throw error;
  }
  return { lead: toLead(lead), visitor_id: visitorId };
}
