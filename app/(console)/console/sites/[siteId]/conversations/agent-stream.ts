/**
 * Posts a message to an agent's route with `Accept: text/event-stream` and reads the server-sent
 * events (`accepted`, `delta`, `done`): each piece of the reply goes to `onText` as it is written.
 * A refusal (no model, a bad message) throws its message, in the API's words.
 */
export async function streamAgentReply(
  url: string,
  body: unknown,
  onText: (text: string) => void,
): Promise<{ conversationId?: string; error?: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
  });
  if (!res.ok || !res.body) {
    const answer = await res.json().catch(() => undefined);
    throw new Error(answer?.error?.message ?? `The message could not be sent (${res.status})`);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let conversationId: string | undefined;
  let error: string | undefined;
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
      if (name === 'accepted') conversationId = data?.conversation_id;
      if (name === 'delta') onText(data.text);
      if (name === 'done' && data?.status === 'failed') error = data.error?.message ?? 'The agent could not answer';
    }
  }
  return { conversationId, error };
}
