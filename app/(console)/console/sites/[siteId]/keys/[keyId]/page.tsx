import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { BackLink } from '@/components/kit/page-back-link';
import { Fact } from '@/components/kit/section-facts';
import { Time } from '@/components/time';
import { isUuid } from '@/lib/core/schemas';
import { keyUsage, listKeysForUser } from '@/lib/keys/service';

export const metadata: Metadata = { title: 'Key usage · Site Growth Platform' };

const DAYS = 30;

/** One key's usage over the last 30 UTC days: the same keyUsage() as GET /api/keys/{id}/usage. */
export default async function KeyUsagePage({ params }: { params: Promise<{ siteId: string; keyId: string }> }) {
  const { siteId, keyId } = await params;
  const { user, site } = await requireSiteAccess(siteId, 'keys.manage');
  const key = isUuid(keyId) ? (await listKeysForUser(user, site.id)).find((k) => k.id === keyId.toLowerCase()) : undefined;
  if (!key) notFound();
  const usage = await keyUsage(site.id, key.id, DAYS);
  const errors = usage.days.reduce((sum, d) => sum + d.errors, 0);
  const peak = Math.max(1, ...usage.days.map((d) => d.requests));
  const newestFirst = [...usage.days].reverse();
  return (
    <>
      <BackLink href={`/console/sites/${site.id}/keys`} label="All API keys" />
      <Card title={`Usage of “${key.name}”`} badge={key.status} id="usage">
        <p className="sub mono wrap">{key.display}</p>
        <dl className="stats">
          <Fact label={`Requests, last ${DAYS} days`} testId="usage-requests">
            {usage.total_requests}
          </Fact>
          <Fact label="Errors (status 400 and above)" testId="usage-errors">
            {errors}
          </Fact>
          <Fact label="Last used">{usage.last_used_at ? <Time iso={usage.last_used_at} withDate /> : <span className="empty">Never</span>}</Fact>
          <Fact label="Last status" testId="usage-last-status">
            {usage.last_status ?? <span className="empty">None</span>}
          </Fact>
        </dl>
      </Card>
      <Card title="Requests per day" id="daily">
        <p className="hint">
          UTC days from {usage.from} to {usage.to}, newest first; the red part of a bar is errors. Requests appear within about a second; per-request
          records are kept {usage.retention_days} days.
        </p>
        <div className="table-wrap">
          <table className="usage">
            <caption className="visually-hidden">Requests and errors per day for “{key.name}”, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Requests</th>
                <th scope="col">Errors</th>
              </tr>
            </thead>
            <tbody>
              {newestFirst.map((day) => (
                <tr key={day.date} data-date={day.date}>
                  <th scope="row">
                    <time dateTime={day.date}>{day.date}</time>
                  </th>
                  <td>
                    <span className="bar-cell">
                      <span className={day.requests ? 'count' : 'count empty'}>{day.requests}</span>
                      {/* A day without requests draws no bar at all: only days with traffic stand out. */}
                      {day.requests > 0 && (
                        <span className="bar" aria-hidden="true">
                          <span className="fill" style={{ width: `${(day.requests / peak) * 100}%` }} />
                          <span className="fill error" style={{ width: `${(day.errors / peak) * 100}%` }} />
                        </span>
                      )}
                    </span>
                  </td>
                  <td className={day.errors ? 'error-count' : 'empty'}>{day.errors}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
    </>
  );
}
