/**
 * Grants finder credits to a site and optionally sets its monthly spend cap. Operators only;
 * there is no API for it.
 *
 *   npm run credits:grant -- <site_id> <credits> [--monthly-cap <credits>|default] [--note "<text>"]
 *
 * `--monthly-cap default` clears the site's own cap (FINDER_MONTHLY_CAP applies). `<credits>` may
 * be 0 to change only the cap. Uses the configured database (DATABASE_URL, else PGlite under
 * DATA_DIR; PGlite allows one process at a time, so stop the server first).
 */
import { parseArgs } from 'node:util';
import { isUuid } from '@/lib/core/schemas';
import { database } from '@/lib/db/client';
import { grantCredits } from '@/lib/finder/credits-repo';
import { getSite } from '@/lib/sites/repo';

const USAGE = 'usage: credits:grant <site_id> <credits> [--monthly-cap <credits>|default] [--note "<text>"]';

async function main() {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { 'monthly-cap': { type: 'string' }, note: { type: 'string' } },
  });
  const [siteId, creditsArg] = positionals;
  const credits = Number(creditsArg);
  if (!siteId || !isUuid(siteId) || !Number.isSafeInteger(credits) || credits < 0 || credits > 1_000_000_000) throw new Error(USAGE);
  const capArg = values['monthly-cap'];
  let monthlyCap: number | null | undefined;
  if (capArg === 'default') monthlyCap = null;
  else if (capArg !== undefined) {
    monthlyCap = Number(capArg);
    if (!Number.isSafeInteger(monthlyCap) || monthlyCap < 0) throw new Error(USAGE);
  }
  if (credits === 0 && monthlyCap === undefined) throw new Error(`nothing to do: ${USAGE}`);
  const db = await database();
  try {
    if (!(await getSite(siteId))) throw new Error(`no site ${siteId}`);
    const account = await grantCredits(siteId, credits, { note: values.note ?? 'Granted by the operator', monthlyCap });
    console.log(
      `site ${siteId}: balance ${account.balance} credits; monthly cap ${account.effective_monthly_cap ?? 'none'}` +
        `${account.monthly_cap === null ? ' (deployment default)' : ''}; spent in ${account.month}: ${account.spent_this_month}`,
    );
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
