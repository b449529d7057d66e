import { creditsQuery, CreditsResponseSchema } from '@/lib/finder/schema';
import { creditsOverview } from '@/lib/finder/service';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// GET /api/finder/credits — the site's finder balance, monthly cap, prices and recent ledger
export const GET = defineRoute({
  summary: 'Finder credits',
  description:
    "The site's credit balance, this month's spend against its cap, the price of each call type and the most recent " +
    'ledger entries (grants, charges, refunds). Credits are granted by the operator (`npm run credits:grant`).',
  tags: ['Finder'],
  auth: policies.keyRead,
  query: creditsQuery,
  response: CreditsResponseSchema,
  handler: ({ siteId, query }) => creditsOverview(siteId, query.limit),
});
