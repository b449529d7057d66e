import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthShell } from '@/components/auth-shell';
import { VerifyEmailForm } from './verify-email-form';

export const metadata: Metadata = { title: 'Verify your email · Site Growth Platform' };

/** The page a verification link opens: a button spends the token, so a mail scanner opening the link does not. */
export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  return (
    <AuthShell
      title="Verify your email"
      footer={
        <>
          <Link href="/console">Back to the console</Link>
        </>
      }
    >
      <VerifyEmailForm token={typeof token === 'string' ? token : ''} />
    </AuthShell>
  );
}
