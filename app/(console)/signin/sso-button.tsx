'use client';

import { useRef, useState, type FormEvent } from 'react';

/**
 * "Sign in with …": a form POST to next-auth's sign-in endpoint of the provider, which answers
 * with the redirect to the provider. next-auth wants its CSRF token in the form (the double-submit
 * cookie it sets with /api/auth/csrf), so the token is fetched when the button is pressed.
 */
export function SsoButton({ providerId, name, next }: { providerId: string; name: string; next: string }) {
  const token = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<'idle' | 'pending' | 'failed'>('idle');

  async function submit(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    if (token.current?.value) return;
    event.preventDefault();
    setState('pending');
    try {
      const res = await fetch('/api/auth/csrf', { credentials: 'same-origin' });
      const { csrfToken } = (await res.json()) as { csrfToken?: string };
      if (!res.ok || !csrfToken) throw new Error('no CSRF token');
      token.current!.value = csrfToken;
      form.submit();
    } catch {
      setState('failed');
    }
  }

  return (
    <form method="post" action={`/api/auth/signin/${providerId}`} onSubmit={submit}>
      <p className="form-error" role="alert" hidden={state !== 'failed'}>
        Sign-in with {name} could not start. Check the connection and try again.
      </p>
      <input ref={token} type="hidden" name="csrfToken" defaultValue="" />
      <input type="hidden" name="callbackUrl" value={next} />
      <button type="submit" className="button block" disabled={state === 'pending'} aria-disabled={state === 'pending'}>
        {state === 'pending' ? `Opening ${name}…` : `Sign in with ${name}`}
      </button>
    </form>
  );
}
