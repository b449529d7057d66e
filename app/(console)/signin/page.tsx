import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AuthShell } from '@/components/auth-shell';
import { Notice } from '@/components/kit/page-notice';
import { ssoButton } from '@/lib/users/sso-provider';
import { safeNext } from '../_lib/request-origin';
import { currentUser } from '../_lib/session';
import { SignInForm } from './signin-form';
import { SsoButton } from './sso-button';
import { ssoErrorMessage } from './sso-errors';

export const metadata: Metadata = { title: 'Sign in · Site Growth Platform' };

/** What the account pages that lead here say (`?notice=`). */
const NOTICES: Record<string, string> = {
  signup: 'Check your inbox: a message about your account was sent to that address.',
  reset: 'Your password was changed and every session of the account ended. Sign in with the new password.',
  verified: 'Your email address is verified.',
};

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string | string[]; notice?: string | string[]; error?: string | string[] }>;
}) {
  if (await currentUser()) redirect('/console');
  const { next, notice, error } = await searchParams;
  const message = typeof notice === 'string' ? NOTICES[notice] : undefined;
  const sso = ssoButton();
  // next-auth sends a sign-on that did not complete back here with `?error=`.
  const ssoError = typeof error === 'string' ? ssoErrorMessage(error, sso?.name ?? 'single sign-on') : undefined;
  return (
    <AuthShell
      title="Sign in"
      footer={
        <>
          No account yet? <Link href={typeof next === 'string' && next ? `/signup?next=${encodeURIComponent(next)}` : '/signup'}>Create one</Link>
        </>
      }
    >
      {message && (
        <p className="notice" role="status">
          {message}
        </p>
      )}
      {ssoError && <Notice alert>{ssoError}</Notice>}
      <SignInForm next={typeof next === 'string' ? next : ''} />
      {sso && (
        <>
          <p className="auth-footer">or</p>
          <SsoButton providerId={sso.providerId} name={sso.name} next={safeNext(typeof next === 'string' ? next : '')} />
        </>
      )}
      <p className="auth-footer">
        <Link href="/forgot-password">Forgot password?</Link>
      </p>
    </AuthShell>
  );
}
