import type { Metadata } from 'next';
import Link from 'next/link';
import { tokenOf, type TokenPageProps } from '@/app/(console)/_lib/page-props';
import { AuthShell } from '@/components/auth-shell';
import { VerifyEmailForm } from './verify-email-form';

export const metadata: Metadata = { title: 'Verify your email · Site Growth Platform' };

/** The page a verification link opens: a button spends the token, so a mail scanner opening the link does not. */
export default async function VerifyEmailPage(props: TokenPageProps) {
  return (
    <AuthShell title="Verify your email" footer={<Link href="/console">Back to the console</Link>}>
      <VerifyEmailForm token={await tokenOf(props)} />
    </AuthShell>
  );
}
