import { sql } from 'drizzle-orm';
import { openDatabase, useDatabase } from '@/lib/db/client';
import { factsQuery, dayTotals, newLeadsPerDay, rolledUpDays, oldestLiveSessionStart, topValues } from '@/lib/analytics/repo';
import { addDays, dateIn, daysOf } from '@/lib/analytics/calendar';
const t = async (label: string, fn: () => Promise<unknown>) => { const t0 = performance.now(); await fn(); console.log(label.padEnd(30), (performance.now() - t0).toFixed(1)); };
async function main() {
  const db = await openDatabase({ kind: 'postgres', url: 'postgres://postgres@127.0.0.1:5432/' + process.argv[2], poolMax: 2 });
  useDatabase(db);
  const [{ id }] = await db.sql.query<{ id: string }>(`select id from sites where name = 'Bench'`);
  const now = Date.now();
  const today = dateIn(now, 'UTC');
  const from = addDays(today, -89);
  const days = daysOf(from, today, 'UTC');
  for (let k = 0; k < 3; k++) {
    await t('select 1', () => db.sql.query('select 1'));
    await t('calendar year', async () => daysOf(addDays(today, -367), today, 'Europe/Madrid'));
    await t('rolledUpDays', () => rolledUpDays(id, 'UTC', days.dates));
    await t('oldestLive', () => oldestLiveSessionStart(id, days.starts[87], now));
    const open = { days: daysOf(addDays(today, -1), today, 'UTC'), previous: daysOf(addDays(today, -367), today, 'UTC') };
    const kept = { from, to: addDays(today, -2) };
    await t('dayTotals kept only', () => dayTotals({ siteId: id, tz: 'UTC', kept }, from));
    await t('dayTotals open only', () => dayTotals({ siteId: id, tz: 'UTC', open }, from));
    await t('dayTotals both', () => dayTotals({ siteId: id, tz: 'UTC', kept, open }, from));
    await t('leads', () => newLeadsPerDay(id, days));
    await t('pages kept only', () => topValues({ siteId: id, tz: 'UTC', kept }, 'page', 10));
    await t('pages open only', () => topValues({ siteId: id, tz: 'UTC', open }, 'page', 10));
    await t('countries open only', () => topValues({ siteId: id, tz: 'UTC', open }, 'country', 10));
    console.log('--');
  }
  if (process.argv[3]) {
    const open = { days: daysOf(addDays(today, -1), today, 'UTC'), previous: daysOf(addDays(today, -367), today, 'UTC') };
    const q = factsQuery(id, open, [process.argv[3] as any]);
    const res: any = await db.db.execute(sql`explain (analyze, buffers) ${q}`);
    console.log(res.rows.map((r: any) => r['QUERY PLAN']).join('\n').replace(/'\{[^}]{200,}\}'/g, "'{…}'"));
  }
  await db.close();
}
main();
