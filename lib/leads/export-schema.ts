import { z } from 'zod';
import { siteIdSchema, uuidSchema } from '@/lib/core/schemas';
import { LEAD_STATUSES, leadSearchSchema } from './schema';

/** `property.<key>` query parameters: a custom property filter each. */
const PROPERTY_PARAM = /^property\.([a-z][a-z0-9_]{0,39})$/;

export const exportQuerySchema = z
  .object({
    site_id: siteIdSchema,
    search: leadSearchSchema.optional().describe('Case-insensitive substring of name, email or company'),
    status: z.enum(LEAD_STATUSES).optional().describe('Only leads with this status'),
    segment_id: uuidSchema.optional().describe('Only leads in this segment of the site'),
  })
  .catchall(z.string().max(1_000).describe('`property.<key>=value`: only leads whose custom property holds the value'))
  .superRefine((q, ctx) => {
    const extra = Object.keys(q).filter((k) => !['site_id', 'search', 'status', 'segment_id'].includes(k));
    for (const k of extra)
      if (!PROPERTY_PARAM.test(k))
        ctx.addIssue({ code: 'custom', path: [k], message: 'Unknown parameter (custom property filters are property.<key>)' });
    if (extra.length > 20) ctx.addIssue({ code: 'custom', path: [], message: 'At most 20 property filters' });
  });

/** The `property.<key>` parameters of a query (the console's list page reads them too). */
export function propertyFiltersOf(query: Record<string, unknown>): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    const m = PROPERTY_PARAM.exec(k);
    if (m && typeof v === 'string' && v !== '') out[m[1]] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
