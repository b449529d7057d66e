import type { Metadata } from 'next';
import Link from 'next/link';
import { tokenOf, type TokenPageProps } from '@/app/(console)/_lib/page-props';
import { AuthShell } from '@/components/auth-shell';
import { ResetPasswordForm } from './reset-password-form';

export const metadata: Metadata = { title: 'Choose a new password · Site Growth Platform' };

/** The page a reset link opens: the token travels on in the form, spent only when the new password is sent. */
export default async function ResetPasswordPage(props: TokenPageProps) {
  return (
    <AuthShell
      title="Choose a new password"
      footer={
        <>
          Link expired? <Link href="/forgot-password">Ask for a new one</Link>
        </>
      }
    >
      <ResetPasswordForm token={await tokenOf(props)} />
    </AuthShell>
  );
}
