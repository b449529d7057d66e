import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { ApiError } from '@/lib/core/errors';
import { unsubscribeQuerySchema } from '@/lib/email/schema';
import { unsubscribe } from '@/lib/email/service';
import { sequenceReactions } from '@/lib/sequences/service';

export const metadata: Metadata = { title: 'Unsubscribe', robots: { index: false } };

/**
 * The page behind the unsubscribe link at the end of a message. Opening it changes nothing (link
 * scanners open links); the button does, through the same domain function as the one-click POST.
 */
async function confirmUnsubscribe(token: string): Promise<void> {
  'use server';
  let outcome = 'done';
  try {
    await unsubscribe(token, sequenceReactions);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    outcome = 'invalid';
  }
  redirect(`/unsubscribe?${outcome}=1`);
}

export default async function UnsubscribePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const parsed = unsubscribeQuerySchema.safeParse({ token: query.token });
  return (
    <main style={{ maxWidth: '32rem', margin: '4rem auto', fontFamily: 'system-ui, sans-serif', lineHeight: 1.5 }}>
      <h1>Unsubscribe</h1>
      {query.done ? (
        <p role="status">You are unsubscribed: no further email will be sent to this address.</p>
      ) : query.invalid || !parsed.success ? (
        <p role="alert">This unsubscribe link is not valid. Use the link from the message as it arrived.</p>
      ) : (
        <form action={confirmUnsubscribe.bind(null, parsed.data.token)}>
          <p>Stop receiving email from this sender at this address?</p>
          <button type="submit">Unsubscribe</button>
        </form>
      )}
    </main>
  );
}
