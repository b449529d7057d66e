import Link from 'next/link';
import { visitorLabel } from '@/lib/visitors/label';

interface Visit {
  visitor_id: string;
  lead_id: string | null;
  is_bot: boolean;
  location?: Record<string, unknown> | null;
  browser?: Record<string, unknown> | null;
}

/**
 * Who made a visit, in words: the lead's name (a link to the lead) or the visitor's label (a link to
 * all their visits; a bot's is marked by the BotBadge beside it). The full id is the link's title and
 * one click away.
 */
export function VisitorName({ siteId, visit, leadName }: { siteId: string; visit: Visit; leadName?: string }) {
  const base = `/console/sites/${siteId}`;
  return visit.lead_id ? (
    <Link href={`${base}/leads/${visit.lead_id}`} title={`Lead ${visit.lead_id}`}>
      {leadName ?? 'Lead'}
    </Link>
  ) : (
    <Link
      href={`${base}/sessions?${new URLSearchParams({ visitor: visit.visitor_id, ...(visit.is_bot ? { bots: 'show' } : {}) })}`}
      title={`Visitor ${visit.visitor_id}`}
    >
      {visitorLabel(visit)}
    </Link>
  );
}

/** Marks a bot's visit wherever visits are listed, next to its status (the Overview leaves them out). */
export function BotBadge() {
  return (
    <span className="badge bot" title="A bot, crawler, headless browser or script (by its User-Agent): left out of the Overview">
      bot
    </span>
  );
}
