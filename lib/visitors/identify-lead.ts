import { found, notFound } from '@/lib/core/errors';
import { isForeignKeyViolation } from '@/lib/db/errors';
import type { IdentifyLeadInput, Lead } from '@/lib/leads/schema';
import { findLead, findLeadByEmail, toLead } from '@/lib/leads/service';
import { findVisitor, setVisitorLead } from './visitors-repo';

/**
 * leads/identify: with `lead_id` or `email`, links the site's visitor to that lead of the site
 * (replacing an earlier link; the same link the visitor-session identify routes set) and returns
 * it; without either, returns the lead the visitor is linked to. An unknown visitor, a lead of
 * another site, or an unlinked visitor is a 404.
 */
export async function identifyLead(siteId: string, input: IdentifyLeadInput): Promise<{ lead: Lead; visitor_id: string }> {
  const visitorId = input.visitor_id.toLowerCase();
  const visitor = found(await findVisitor(siteId, visitorId), 'Visitor');
  if (!input.lead_id && !input.email) {
    const linked = visitor.leadId ? await findLead(siteId, visitor.leadId) : undefined;
    return { lead: toLead(found(linked, 'Lead for this visitor')), visitor_id: visitorId };
  }
  const lead = found(input.lead_id ? await findLead(siteId, input.lead_id) : await findLeadByEmail(siteId, input.email!), 'Lead');
  try {
    if (!(await setVisitorLead(siteId, visitorId, lead.id))) throw notFound('Visitor');
  } catch (error) {
    // The lead was deleted between the read and the link.
    if (isForeignKeyViolation(error)) throw notFound('Lead');
    throw error;
  }
  return { lead: toLead(lead), visitor_id: visitorId };
}
