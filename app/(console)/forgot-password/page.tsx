import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthShell } from '@/components/auth-shell';
import { ForgotPasswordForm } from './forgot-password-form';

export const metadata: Metadata = { title: 'Forgot password · Site Growth Platform' };

export default function ForgotPasswordPage() {
  return (
    <AuthShell
      title="Forgot password"
      footer={
        <>
          Remembered it? <Link href="/signin">Sign in</Link>
        </>
      }
    >
      <ForgotPasswordForm />
    </AuthShell>
  );
}
