'use client';

import type { ReactNode } from 'react';
import { useFormStatus } from 'react-dom';

/** A submit button that is disabled and says so while its form's action runs. */
export function SubmitButton({
  children,
  pending: pendingLabel,
  className = 'button primary',
}: {
  children: ReactNode;
  pending: string;
  className?: string;
}) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" className={className} disabled={pending} aria-disabled={pending}>
      {pending ? pendingLabel : children}
    </button>
  );
}
