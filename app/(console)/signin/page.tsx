import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AuthShell } from '@/components/auth-shell';
import { currentUser } from '../_lib/session';
import { SignInForm } from './signin-form';

export const metadata: Metadata = { title: 'Sign in · Site Growth Platform' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  if (await currentUser()) redirect('/console');
  const { next } = await searchParams;
  return (
    <AuthShell
      title="Sign in"
      footer={
        <>
          No account yet? <Link href="/signup">Create one</Link>
        </>
      }
    >
      <SignInForm next={typeof next === 'string' ? next : ''} />
    </AuthShell>
  );
}
