'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { FormError } from '@/components/field';
import { streamAgentReply } from '../agent-stream';

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
      const done = await streamAgentReply(`/api/sites/${siteId}/conversations/${conversationId}/messages`, { message }, (text) =>
        setReply((r) => r + text),
      );
      if (done.error) setError(done.error);
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
