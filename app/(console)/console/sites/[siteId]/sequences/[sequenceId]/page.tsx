import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { count } from '@/app/(console)/_lib/format';
import { offsetSchema, withQuery } from '@/app/(console)/_lib/list-query';
import type { SitePageProps } from '@/app/(console)/_lib/page-props';
import { delayText, WEEKDAYS } from '@/app/(console)/_lib/sequence-form';
import { requireSiteAccess } from '@/app/(console)/_lib/session';
import { siteTimeZone } from '@/components/dates';
import { Card } from '@/components/kit/card';
import { DataTable, Pager } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { BackLink } from '@/components/kit/page-back-link';
import { Time } from '@/components/time';
import { ApiError } from '@/lib/core/errors';
import { isUuid } from '@/lib/core/schemas';
import { listRecipients } from '@/lib/email/service';
import { listLeadsInputSchema } from '@/lib/leads/schema';
import { leadNames, listLeads } from '@/lib/leads/service';
import { can } from '@/lib/members/permissions';
import { listSegments, segmentLeadCounts } from '@/lib/segments/service';
import { enrollmentHistory, type StepMessage } from '@/lib/sequences/history';
import { ENROLLMENT_STATUSES, type Enrollment, type SequenceDetail } from '@/lib/sequences/schema';
import { draftsForReview, getSequence, type DraftForReview } from '@/lib/sequences/service';
import { ApproveDraftForm, EnrollSegmentForm, PreviewAndTest, SequenceStatusButton, UnenrollButton } from '../sequence-forms';

export const metadata: Metadata = { title: 'Sequence · Site Growth Platform' };

const PAGE = 50;
/** Drafts shown for review at once: the oldest first; approving them brings the next ones. */
const DRAFTS = 20;
const PREVIEW_CHARS = 240;
const pct = (n: number, of: number) => (of > 0 ? `${Math.round((n / of) * 100)}%` : '—');
const hour = (h: number) => `${String(h).padStart(2, '0')}:00`;

type Search = { status?: string; offset?: string };

/** One sequence: its figures, each step's funnel and A/B split, a preview and test, enrolling, and the enrollments with their history. */
export default async function SequencePage({ params, searchParams }: SitePageProps<Search, { sequenceId: string }>) {
  const { siteId, sequenceId } = await params;
  const { site, role } = await requireSiteAccess(siteId);
  if (!isUuid(sequenceId)) notFound();
  const q = await searchParams;
  const status = ENROLLMENT_STATUSES.find((s) => s === q.status);
  const offset = offsetSchema.parse(q.offset);
  let sequence: SequenceDetail;
  try {
    sequence = await getSequence(site.id, sequenceId.toLowerCase(), { site_id: site.id, enrollment_status: status, limit: PAGE, offset });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') notFound();
    throw error;
  }
  const writes = can(role, 'crm.write');
  const reviewed = sequence.steps.some((s) => s.kind === 'agent' && s.review !== false);
  const [history, names, leads, segments, recipients, drafts] = await Promise.all([
    enrollmentHistory(
      site.id,
      sequence.enrollments.map((e) => e.id),
    ),
    leadNames(
      site.id,
      sequence.enrollments.map((e) => e.lead_id),
    ),
    writes ? listLeads(site.id, listLeadsInputSchema.parse({ site_id: site.id, limit: 100 })) : undefined,
    writes ? listSegments(site.id, { site_id: site.id, limit: 500, offset: 0 }) : undefined,
    writes ? listRecipients(site.id) : [],
    draftsForReview(site.id, sequence.id, DRAFTS),
  ]);
  const sizes = segments
    ? await segmentLeadCounts(
        site.id,
        segments.items.map((s) => s.segment_id),
      )
    : new Map<string, number>();
  const base = `/console/sites/${site.id}`;
  const here = `${base}/sequences/${sequence.id}`;
  const f = sequence.figures;
  const zone = siteTimeZone(site.settings) ?? 'UTC';
  const w = sequence.send_window;
  const rules = [
    w ? `Sends ${w.days.map((d) => WEEKDAYS[d - 1]).join(', ')} ${hour(w.start_hour)}–${hour(w.end_hour)} (${zone})` : 'Sends at any time',
    sequence.daily_cap ? `at most ${count(sequence.daily_cap)} a day` : 'no daily cap',
    sequence.domain_per_minute ? `at most ${count(sequence.domain_per_minute)} a minute per domain` : 'no per-domain limit',
    `stops on reply, bounce, unsubscribe${sequence.stop_on_status.map((s) => `, ${s}`).join('')}`,
  ];
  return (
    <>
      <BackLink href={`${base}/sequences`} label="All sequences" />
      <Card
        title={sequence.name}
        badge={sequence.status}
        id="sequence"
        actions={
          writes && (
            <>
              <SequenceStatusButton siteId={site.id} sequenceId={sequence.id} status={sequence.status} />
              <Link href={`${here}/edit`} className="button small">
                Edit
              </Link>
            </>
          )
        }
      >
        <p className="sub">
          {sequence.steps.length} {sequence.steps.length === 1 ? 'step' : 'steps'} · {rules.join(' · ')}
        </p>
        {sequence.status === 'paused' && <p className="notice">Paused: nothing is sent until it is resumed; due steps go out then.</p>}
        <dl className="figures" data-testid="sequence-figures">
          {(
            [
              ['Enrolled', f.enrolled],
              ['Active', f.active],
              ['Completed', f.completed],
              ['Stopped', f.stopped],
              ['Sent', f.sent],
              ['Opened', f.opened],
              ['Clicked', f.clicked],
              ['Replied', f.replied],
              ['Bounced', f.bounced],
              ['Unsubscribed', f.unsubscribed],
            ] as const
          ).map(([label, n]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{count(n)}</dd>
            </div>
          ))}
        </dl>
      </Card>

      <Card title="Steps" id="steps">
        <ol className="sequence-steps">
          {sequence.steps.map((step, i) => {
            const s = sequence.step_figures[i];
            const funnel = [
              ['Sent', s.sent],
              ['Opened', s.opened],
              ['Clicked', s.clicked],
              ['Replied', s.replied],
            ] as const;
            return (
              <li key={i} data-step={i}>
                <h3>
                  Step {i + 1} <span className="sub-inline">· {delayText(step.delay_minutes, i === 0)}</span>
                </h3>
                <p className="wrap">
                  <strong>{step.subject}</strong>
                </p>
                <ol className="funnel" aria-label={`Step ${i + 1} funnel`}>
                  {funnel.map(([label, n]) => (
                    <li key={label}>
                      <span className="label">{label}</span>
                      <span className="bar" aria-hidden="true">
                        <span className="fill" style={{ width: s.sent > 0 ? `${(n / s.sent) * 100}%` : '0%' }} />
                      </span>
                      <span className="count">
                        {count(n)}
                        {label !== 'Sent' && <span className="share"> {pct(n, s.sent)}</span>}
                      </span>
                    </li>
                  ))}
                </ol>
                <p className="sub">
                  {count(s.waiting)} waiting for this step · {count(s.bounced)} bounced · {count(s.unsubscribed)} unsubscribed
                </p>
                {s.variants.length > 1 && (
                  <div className="table-wrap">
                    <p className="ab-title" aria-hidden="true">
                      A/B split
                    </p>
                    <table className="stack ab-split">
                      <caption className="visually-hidden">A/B split of step {i + 1}</caption>
                      <thead>
                        <tr>
                          <th scope="col">Subject</th>
                          <th scope="col">Sent</th>
                          <th scope="col">Opened</th>
                          <th scope="col">Clicked</th>
                          <th scope="col">Replied</th>
                        </tr>
                      </thead>
                      <tbody>
                        {s.variants.map((v) => (
                          <tr key={v.variant}>
                            <td>
                              <span className="badge info">{String.fromCharCode(65 + v.variant)}</span> <span className="wrap">{v.subject}</span>
                            </td>
                            <td data-label="Sent">{count(v.sent)}</td>
                            <td data-label="Opened">
                              {count(v.opened)} <span className="sub-inline">{pct(v.opened, v.sent)}</span>
                            </td>
                            <td data-label="Clicked">
                              {count(v.clicked)} <span className="sub-inline">{pct(v.clicked, v.sent)}</span>
                            </td>
                            <td data-label="Replied">
                              {count(v.replied)} <span className="sub-inline">{pct(v.replied, v.sent)}</span>
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      </Card>

      {(reviewed || drafts.total > 0) && (
        <Card title={`Drafts to review (${count(drafts.total)})`} id="review">
          <p className="hint intro">
            The email agent wrote these for the steps it drafts with review; each waits until it is approved, as written or edited, and then goes out
            within the send window and the caps.{writes && ' To send nothing to a lead, unenroll it under Enrollments.'}
          </p>
          {drafts.items.length === 0 ? (
            <EmptyState title="No drafts wait for review.">A draft appears here when a lead reaches a step the agent drafts.</EmptyState>
          ) : (
            <ol className="draft-list">
              {drafts.items.map((d) => (
                <DraftItem key={d.enrollmentId} draft={d} base={base}>
                  {writes && <ApproveDraftForm siteId={site.id} sequenceId={sequence.id} leadId={d.leadId} subject={d.subject} body={d.body} />}
                </DraftItem>
              ))}
            </ol>
          )}
          {drafts.total > drafts.items.length && (
            <p className="sub">{count(drafts.total - drafts.items.length)} more wait behind these; they appear here as these are approved.</p>
          )}
        </Card>
      )}

      {writes && leads && (
        <Card title="Preview and test" id="preview">
          {leads.items.length === 0 ? (
            <EmptyState title="No leads to preview with yet.">A step is previewed with a real lead’s name, company and position.</EmptyState>
          ) : (
            <PreviewAndTest
              siteId={site.id}
              sequenceId={sequence.id}
              steps={sequence.steps.map((st, i) => ({ value: String(i + 1), label: `Step ${i + 1}: ${st.subject}` }))}
              leads={leads.items.map((l) => ({ value: l.id, label: `${l.name} <${l.email}>${l.company ? ` · ${l.company}` : ''}` }))}
              recipients={recipients.filter((r) => r.verified).map((r) => r.email)}
              noRecipients={
                <p className="hint">
                  A test goes only to an address of yours that you verified: add one under{' '}
                  <Link href={`${base}/email#recipients`}>Email → Test recipients</Link>.
                </p>
              }
            />
          )}
        </Card>
      )}

      {writes && segments && (
        <Card title="Enroll leads" id="enroll">
          <p className="hint intro">
            Each lead is enrolled once; leads that unsubscribed or bounced are skipped. To pick leads one by one, tick them on the{' '}
            <Link href={`${base}/leads`}>Leads</Link> page and choose “Enroll in sequence”.
          </p>
          {segments.items.length === 0 ? (
            <EmptyState title="No segments yet.">
              <Link href={`${base}/segments`}>Create a segment</Link> to enroll its leads together.
            </EmptyState>
          ) : (
            <EnrollSegmentForm
              siteId={site.id}
              sequenceId={sequence.id}
              segments={segments.items.map((s) => ({ value: s.segment_id, label: `${s.name} (${count(sizes.get(s.segment_id) ?? 0)} leads)` }))}
            />
          )}
        </Card>
      )}

      <Card title={`Enrollments (${count(sequence.enrollments_total)})`} id="enrollments">
        <nav className="tabs" aria-label="Enrollments by status">
          {[undefined, ...ENROLLMENT_STATUSES].map((s) => (
            <a key={s ?? 'all'} href={withQuery(here, {}, { status: s })} aria-current={s === status ? 'true' : undefined}>
              {s ?? 'all'}
            </a>
          ))}
        </nav>
        <DataTable<Enrollment>
          caption={`Enrollments in ${sequence.name}`}
          rows={sequence.enrollments}
          rowKey={(e) => e.id}
          empty={<EmptyState title={status ? `No ${status} enrollments.` : 'Nobody is enrolled yet.'} />}
          columns={[
            {
              header: 'Lead',
              title: true,
              cell: (e) => (
                <>
                  <Link href={`${base}/leads/${e.lead_id}`}>
                    <strong className="wrap">{names.get(e.lead_id) ?? e.email}</strong>
                  </Link>
                  <span className="sub wrap">{e.email}</span>
                </>
              ),
            },
            {
              header: 'Status',
              cell: (e) => (
                <>
                  <span className={`badge ${e.status}`}>{e.status}</span>
                  {e.stop_reason && <span className="sub">{e.stop_reason}</span>}
                </>
              ),
            },
            {
              header: 'Step',
              cell: (e) => (e.next_step >= sequence.steps.length ? 'all sent' : `next: ${e.next_step + 1} of ${sequence.steps.length}`),
            },
            { header: 'Next send', cell: (e) => (e.next_send_at ? <Time iso={e.next_send_at} withDate /> : <span className="empty">—</span>) },
            { header: 'History', cell: (e) => <History messages={history.get(e.id) ?? []} /> },
            ...(writes
              ? [
                  {
                    header: 'Actions',
                    hideHeader: true,
                    cell: (e: Enrollment) =>
                      e.status === 'active' && <UnenrollButton siteId={site.id} sequenceId={sequence.id} leadId={e.lead_id} email={e.email} />,
                  },
                ]
              : []),
          ]}
        />
        <Pager offset={offset} limit={PAGE} total={sequence.enrollments_total} href={(o) => withQuery(here, q, { offset: o || undefined })} />
      </Card>
    </>
  );
}

/** A draft waiting for review: who it is for, its subject and the start of its body; the whole of it (and, for writers, the form) behind a disclosure. */
function DraftItem({ draft, base, children }: { draft: DraftForReview; base: string; children: React.ReactNode }) {
  const preview = draft.body.length > PREVIEW_CHARS ? `${draft.body.slice(0, PREVIEW_CHARS).trimEnd()}…` : draft.body;
  return (
    <li data-draft={draft.leadId}>
      <p>
        <Link href={`${base}/leads/${draft.leadId}`}>
          <strong className="wrap">{draft.leadName}</strong>
        </Link>{' '}
        <span className="sub-inline wrap">
          {draft.email} · step {draft.step + 1} · drafted <Time iso={draft.draftedAt} />
        </span>
      </p>
      <p className="wrap">
        <strong>{draft.subject}</strong>
      </p>
      <p className="draft-preview wrap">{preview}</p>
      <details className="draft-details">
        <summary>{children ? 'Read, edit and approve' : 'Read the whole draft'}</summary>
        {children ?? <pre className="message-body">{draft.body}</pre>}
      </details>
    </li>
  );
}

/** What an enrollment's messages did, step by step. */
function History({ messages }: { messages: StepMessage[] }) {
  if (messages.length === 0) return <span className="empty">nothing sent yet</span>;
  return (
    <details className="history">
      <summary>
        {messages.length} {messages.length === 1 ? 'email' : 'emails'}
      </summary>
      <ol>
        {messages.map((m) => (
          <li key={m.step} data-history-step={m.step}>
            <strong>Step {m.step + 1}</strong>
            {m.variant > 0 && <> ({String.fromCharCode(65 + m.variant)})</>}:{' '}
            {m.sent_at ? (
              <>
                sent <Time iso={m.sent_at} />
              </>
            ) : (
              m.status
            )}
            {m.opened_at && <> · opened</>}
            {m.clicked_at && <> · clicked</>}
            {m.replied_at && (
              <>
                {' '}
                · <strong>replied</strong> <Time iso={m.replied_at} />
              </>
            )}
            {m.bounced_at && <> · bounced</>}
            {m.unsubscribed_at && <> · unsubscribed</>}
          </li>
        ))}
      </ol>
    </details>
  );
}
