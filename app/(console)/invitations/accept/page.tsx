import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthShell } from '@/components/auth-shell';
import { currentUser } from '../../_lib/session';
import { AcceptInvitationForm } from './accept-form';

export const metadata: Metadata = { title: 'Accept an invitation · Site Growth Platform' };

/**
 * The page an invitation link opens. Signed out: sign in or create an account, then back here.
 * Signed in: a button accepts (a mail scanner opening the link spends nothing); only the invited
 * address may.
 */
export default async function AcceptInvitationPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  const value = typeof token === 'string' ? token : '';
  const back = `/invitations/accept?token=${encodeURIComponent(value)}`;
  const user = await currentUser();
  return (
    <AuthShell title="Join a site" footer={<Link href="/console">Back to the console</Link>}>
      {user ? (
        <AcceptInvitationForm token={value} email={user.email} />
      ) : (
        <>
          <p>Sign in with the address the invitation was sent to, or create an account for it, to accept.</p>
          <p>
            <Link className="button primary block" href={`/signin?next=${encodeURIComponent(back)}`}>
              Sign in
            </Link>
          </p>
          <p>
            <Link className="button block" href={`/signup?next=${encodeURIComponent(back)}`}>
              Create an account
            </Link>
          </p>
        </>
      )}
    </AuthShell>
  );
}
