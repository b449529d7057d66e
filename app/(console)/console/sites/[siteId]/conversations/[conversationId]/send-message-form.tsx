'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { FormError } from '@/components/field';

/**
 * Writes in the conversation and shows the agent's reply as it streams in (server-sent events of
 * POST /api/sites/{site_id}/conversations/{id}/messages); when it is done the page shows the
 * recorded conversation.
 */
export function SendMessageForm({ siteId, conversationId, agent }: { siteId: string; conversationId: string; agent: string }) {
  const router = useRouter();
  const [sent, setSent] = useState('');
  const [reply, setReply] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const message = String(new FormData(form).get('message') ?? '');
    setBusy(true);
    setError(undefined);
    setSent(message);
    setReply('');
    try {
      const res = await fetch(`/api/sites/${siteId}/conversations/${conversationId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ message }),
      });
      if (!res.ok || !res.body) {
        const body = await res.json().catch(() => undefined);
        throw new Error(body?.error?.message ?? `The message could not be sent (${res.status})`);
      }
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null');
          if (name === 'delta') setReply((r) => r + data.text);
          if (name === 'done' && data?.status === 'failed') setError(data.error?.message ?? 'The agent could not answer');
        }
      }
      form.reset();
      router.refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      {sent && (busy || reply) && (
        <ol className="chat" aria-live="polite" data-testid="streaming">
          <li className="user">
            <span className="who">Message</span>
            {sent}
          </li>
          <li className="assistant">
            <span className="who">{agent}</span>
            {reply || '…'}
          </li>
        </ol>
      )}
      <form onSubmit={send}>
        <FormError message={error} />
        <div className="field">
          <label htmlFor="field-message">Message to the {agent} agent</label>
          <textarea id="field-message" name="message" required maxLength={20_000} />
        </div>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'The agent is answering…' : 'Send'}
        </button>
      </form>
    </>
  );
}
