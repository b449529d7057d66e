import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AuthShell } from '@/components/auth-shell';
import { safeNext } from '../_lib/request-origin';
import { currentUser } from '../_lib/session';
import { SignUpForm } from './signup-form';

export const metadata: Metadata = { title: 'Create an account · Site Growth Platform' };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  const { next } = await searchParams;
  const target = safeNext(typeof next === 'string' ? next : '');
  if (await currentUser()) redirect(target);
  return (
    <AuthShell
      title="Create an account"
      footer={
        <>
          Already have an account? <Link href={`/signin?next=${encodeURIComponent(target)}`}>Sign in</Link>
        </>
      }
    >
      <SignUpForm next={target} />
    </AuthShell>
  );
}
