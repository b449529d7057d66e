'use client';

import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { FormError } from '@/components/field';
import { streamAgentReply } from './agent-stream';

/**
 * Starts a conversation with the chosen agent (POST /api/sites/{site_id}/conversations) and shows
 * the reply as it streams in; then a link to the recorded conversation, which the list now shows.
 */
export function StartConversationForm({ siteId, agents }: { siteId: string; agents: { role: string; label: string; short: string }[] }) {
  const router = useRouter();
  const [sent, setSent] = useState<{ agent: string; message: string }>();
  const [reply, setReply] = useState('');
  const [conversationId, setConversationId] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function start(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const agent = String(data.get('agent') ?? '');
    const message = String(data.get('message') ?? '').trim();
    if (!message) {
      setError('Write a message to the agent.');
      return;
    }
    setBusy(true);
    setError(undefined);
    setSent({ agent, message });
    setReply('');
    setConversationId(undefined);
    try {
      const done = await streamAgentReply(`/api/sites/${siteId}/conversations`, { agent, message }, (text) => setReply((r) => r + text));
      setConversationId(done.conversationId);
      if (done.error) setError(done.error);
      form.reset();
      router.refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setSent(undefined);
    } finally {
      setBusy(false);
    }
  }

  const labelOf = (role: string) => agents.find((a) => a.role === role)?.short ?? role;
  return (
    <>
      {sent && (busy || reply) && (
        <ol className="chat" aria-live="polite" data-testid="streaming">
          <li className="user">
            <span className="who">You</span>
            {sent.message}
          </li>
          <li className="assistant">
            <span className="who">{labelOf(sent.agent)}</span>
            {reply || '…'}
          </li>
        </ol>
      )}
      {conversationId && !busy && (
        <p className="status" role="status">
          <Link href={`/console/sites/${siteId}/conversations/${conversationId}`}>Open the conversation</Link> to go on.
        </p>
      )}
      <form onSubmit={start} noValidate>
        <FormError message={error} />
        <div className="field">
          <label htmlFor="field-agent">Agent</label>
          <select id="field-agent" name="agent" defaultValue={agents[0]?.role}>
            {agents.map((a) => (
              <option key={a.role} value={a.role}>
                {a.label}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="field-message">Message</label>
          <textarea id="field-message" name="message" maxLength={20_000} placeholder="What should the agent do or answer?" />
        </div>
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'The agent is answering…' : 'Start conversation'}
        </button>
      </form>
    </>
  );
}
