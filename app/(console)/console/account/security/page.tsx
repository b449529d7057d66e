import type { Metadata } from 'next';
import Link from 'next/link';
import { currentSessionId, requireUser } from '@/app/(console)/_lib/session';
import { Card } from '@/components/kit/card';
import { DataTable } from '@/components/kit/data-table';
import { EmptyState } from '@/components/kit/empty-state';
import { Time } from '@/components/time';
import type { AccountEvent } from '@/lib/users/schema';
import { accountEvents, listSessions, twoFactorStatus } from '@/lib/users/service';
import { EndOtherSessionsButton, EndSessionButton } from './session-buttons';
import { TwoFactorCard } from './two-factor-card';

export const metadata: Metadata = { title: 'Account security · Site Growth Platform' };

const PAGE_SIZE = 25;

/** What each entry of the audit log says, in words. */
const EVENT_LABELS: Record<AccountEvent['kind'], string> = {
  sign_in: 'Signed in',
  sign_in_failed: 'Failed sign-in',
  password_reset: 'Password reset by mail',
  password_changed: 'Password changed',
  '2fa_enabled': 'Two-factor sign-in turned on',
  '2fa_disabled': 'Two-factor sign-in turned off',
  recovery_codes_regenerated: 'New recovery codes',
  recovery_code_used: 'Recovery code used',
  session_revoked: 'Session signed out',
  invitation_sent: 'Invitation sent',
  invitation_accepted: 'Invitation accepted',
  invitation_revoked: 'Invitation withdrawn',
  member_removed: 'Removed from a site',
  role_changed: 'Role changed',
  ownership_transferred: 'Site ownership handed over',
  person_erased: 'A person’s data erased',
  visitor_erased: 'A visitor’s data erased',
};

/** A short description of a browser from its user agent. */
function device(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /(Edg|Firefox|Chrome|Safari)\/[\d.]+/.exec(userAgent)?.[1]?.replace('Edg', 'Edge');
  const os = /(Windows|Mac OS X|Android|iPhone|iPad|Linux)/.exec(userAgent)?.[1]?.replace('Mac OS X', 'macOS');
  return browser || os ? [browser, os].filter(Boolean).join(' on ') : userAgent.slice(0, 60);
}

function detailText(event: AccountEvent): string {
  const d = event.detail;
  if (event.kind === 'sign_in')
    return d.method === 'totp' ? 'with a code' : d.method === 'recovery_code' ? 'with a recovery code' : 'with the password';
  if (event.kind === 'sign_in_failed') return d.reason === 'otp' ? 'wrong code' : 'wrong password';
  if (event.kind === 'recovery_code_used') return `${String(d.remaining)} left`;
  if (event.kind === 'session_revoked') return d.others ? `${String(d.count)} other sessions` : '';
  return '';
}

export default async function AccountSecurityPage({ searchParams }: { searchParams: Promise<{ offset?: string | string[] }> }) {
  const user = await requireUser();
  const raw = (await searchParams).offset;
  const offset = typeof raw === 'string' && /^\d{1,6}$/.test(raw) ? Number(raw) : 0;
  const [status, sessions, events] = await Promise.all([
    twoFactorStatus(user.id),
    listSessions(user.id, await currentSessionId()),
    accountEvents(user.id, { limit: PAGE_SIZE, offset }),
  ]);
  return (
    <>
      <h1>Account security</h1>
      <Card title="Two-factor sign-in" id="two-factor">
        <TwoFactorCard enabled={status.enabled} recoveryCodesLeft={status.recoveryCodesLeft} />
      </Card>
      <Card title="Sessions" id="sessions" actions={sessions.length > 1 ? <EndOtherSessionsButton /> : undefined}>
        <DataTable
          caption="Browsers and session tokens signed in to your account"
          rows={sessions}
          rowKey={(s) => s.id}
          empty={<EmptyState title="No sessions.">Sign in to start one.</EmptyState>}
          columns={[
            {
              header: 'Device',
              cell: (s) => (
                <>
                  <strong>{device(s.user_agent)}</strong> {s.current && <span className="badge active">This session</span>}
                  <span className="sub mono">{s.ip ?? 'address unknown'}</span>
                </>
              ),
            },
            { header: 'Signed in', cell: (s) => <Time iso={s.created_at} withDate /> },
            { header: 'Last used', cell: (s) => (s.last_used_at ? <Time iso={s.last_used_at} /> : <span className="empty">Never</span>) },
            { header: 'Actions', cell: (s) => (s.current ? null : <EndSessionButton sessionId={s.id} device={device(s.user_agent)} />) },
          ]}
        />
      </Card>
      <Card title="Account activity" id="activity">
        <DataTable
          caption="What happened to your account, newest first"
          rows={events.items}
          rowKey={(e) => String(e.id)}
          empty={<EmptyState title="Nothing yet.">Sign-ins and security changes show here.</EmptyState>}
          columns={[
            {
              header: 'What',
              cell: (e) => (
                <>
                  <strong>{EVENT_LABELS[e.kind]}</strong>
                  {detailText(e) && <span className="sub">{detailText(e)}</span>}
                </>
              ),
            },
            { header: 'When', cell: (e) => <Time iso={e.created_at} withDate /> },
            {
              header: 'From',
              cell: (e) => (
                <>
                  {device(e.user_agent)}
                  {e.ip && <span className="sub mono">{e.ip}</span>}
                </>
              ),
            },
          ]}
        />
        {(offset > 0 || offset + PAGE_SIZE < events.total) && (
          <nav aria-label="Account activity pages" className="row">
            {offset > 0 && <Link href={`/console/account/security?offset=${Math.max(0, offset - PAGE_SIZE)}`}>Newer</Link>}
            {offset + PAGE_SIZE < events.total && <Link href={`/console/account/security?offset=${offset + PAGE_SIZE}`}>Older</Link>}
          </nav>
        )}
      </Card>
    </>
  );
}
