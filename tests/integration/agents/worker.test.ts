import { afterAll, beforeAll, expect, it } from 'vitest';
import { POST as cmoMessage } from '@/app/api/agents/cmo/message/route';
import { getCommand } from '@/lib/commands/repo';
import { stopCommandWorker } from '@/lib/agents/queue';
import { presenters } from '../../helpers/auth-matrix';
import { call, createTenant, type Tenant } from '../../helpers/harness';
import { startLlmStandIn, useStandIn, type LlmStandIn } from '../../helpers/llm-standin';

let mine: Tenant;
let standIn: LlmStandIn;
let restore: () => void;
beforeAll(async () => {
  standIn = await startLlmStandIn();
  // The background worker, as the server runs it: started by the first dispatch.
  restore = useStandIn(standIn, { COMMAND_WORKER: 'true' });
  mine = await createTenant();
});
afterAll(async () => {
  await stopCommandWorker();
  restore();
  await standIn.close();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || performance.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

it('the in-process worker runs dispatched commands outside the request, several at a time', async () => {
  standIn.script = (req) => ({ text: `Reply to ${req.messages.at(-1)?.content}` });
  const sent = await Promise.all(
    ['one', 'two', 'three'].map((message) =>
      call(cmoMessage, { method: 'POST', path: '/api/agents/cmo/message', headers: presenters.bearer(mine.key), body: { site_id: mine.siteId, message } }),
    ),
  );
  expect(sent.map((r) => r.status)).toEqual([202, 202, 202]);
  const finished = await Promise.all(
    sent.map((r) => until(() => getCommand(mine.siteId, r.body.data.command_id), (c) => c?.status === 'completed')),
  );
  expect(finished.map((c) => c?.reply)).toEqual(['Reply to one', 'Reply to two', 'Reply to three']);
  expect(standIn.requests).toHaveLength(3);
});
