/**
 * The webhook delivery worker in its own process, for the killed-worker test
 * (tests/integration/webhooks/killed-worker.test.ts), on the configured database (DATABASE_URL,
 * or PGlite under DATA_DIR).
 *
 * SEED_URL=<url>: first create a site with an endpoint at that URL and one lead.created event
 * (printed as `event <id>`), as the API would.
 */
import { randomBytes } from 'node:crypto';
import { database, getDb } from '@/lib/db/client';
import { recordEvent } from '@/lib/webhooks/events';
import { createEndpoint } from '@/lib/webhooks/service';
import { startDeliveryWorker } from '@/lib/webhooks/worker';

async function main() {
  const seedUrl = process.env.SEED_URL;
  if (seedUrl) {
    const db = await database();
    const [user] = await db.sql.query<{ id: string }>(`insert into users (email, password_hash) values ($1, 'x') returning id`, [`hook-${randomBytes(4).toString('hex')}@acme.io`]);
    const [site] = await db.sql.query<{ id: string }>(`insert into sites (owner_id, name) values ($1, 'Hooks') returning id`, [user.id]);
    await createEndpoint(site.id, { url: seedUrl, events: ['lead.created'] });
    const eventId = await (await getDb()).transaction((tx) => recordEvent(tx as never, site.id, 'lead.created', { lead: { email: 'ada@acme.io' } }));
    process.stdout.write(`event ${eventId}\n`);
  }
  startDeliveryWorker();
  process.stdout.write('worker ready\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
