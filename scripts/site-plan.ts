/**
 * Sets a site's plan, which decides its API-key rate limits. Operators only; there is no API for it.
 *
 *   npm run site:plan -- <site_id> basic|pro
 *   npm run site:plan -- <site_id> enterprise <requests_per_minute> <concurrent_requests>
 *
 * Uses the configured database (DATABASE_URL, else PGlite under DATA_DIR; PGlite allows one
 * process at a time, so stop the server first). Keys pick the new limits up on their next request.
 */
import { database } from '@/lib/db/client';
import { sitePlanSchema } from '@/lib/sites/plans';
import { setSitePlan } from '@/lib/sites/repo';

async function main() {
  const [siteId, plan, perMinute, concurrent] = process.argv.slice(2);
  const input = sitePlanSchema.safeParse(
    plan === 'enterprise' ? { plan, rate_limit_per_minute: Number(perMinute), concurrency_limit: Number(concurrent) } : { plan },
  );
  if (!siteId || !input.success) {
    throw new Error('usage: site-plan <site_id> basic|pro | <site_id> enterprise <requests_per_minute> <concurrent_requests>');
  }
  const db = await database();
  try {
    if (!(await setSitePlan(siteId, input.data))) throw new Error(`no site ${siteId}`);
    console.log(`site ${siteId}: plan ${input.data.plan}`);
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
