import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AuthShell } from '@/components/auth-shell';
import { currentUser } from '../_lib/session';
import { SignUpForm } from './signup-form';

export const metadata: Metadata = { title: 'Create an account · Site Growth Platform' };

export default async function SignUpPage() {
  if (await currentUser()) redirect('/console');
  return (
    <AuthShell
      title="Create an account"
      footer={
        <>
          Already have an account? <Link href="/signin">Sign in</Link>
        </>
      }
    >
      <SignUpForm />
    </AuthShell>
  );
}
