import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as cmoMessage } from '@/app/api/agents/cmo/message/route';
import { GET as getConversation } from '@/app/api/agents/conversations/[conversation_id]/route';
import { GET as listConversations } from '@/app/api/agents/conversations/route';
import { POST as contentEditor } from '@/app/api/agents/copywriter/content-editor/route';
import { POST as customerSupportMessage } from '@/app/api/agents/customerSupport/message/route';
import { POST as emailReply } from '@/app/api/agents/email/reply/route';
import { POST as salesMessage } from '@/app/api/agents/sales/message/route';
import { messageCmo } from '@/tests/helpers/agents';
import { authMatrix, presenters } from '@/tests/helpers/auth-matrix';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { startLlmStandIn, useStandIn, type LlmStandIn } from '@/tests/helpers/llm-standin';

let mine: Tenant;
let other: Tenant;
let standIn: LlmStandIn;
let restore: () => void;
let conversationId: string;
beforeAll(async () => {
  standIn = await startLlmStandIn();
  restore = useStandIn(standIn);
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
  const res = await messageCmo(mine, 'hi');
  conversationId = res.body.data.conversation_id;
});
afterAll(async () => {
  restore();
  await standIn.close();
});
const tenants = () => ({ mine, other });

const agentRoutes = [
  ['/api/agents/cmo/message', cmoMessage, { message: 'hello' }],
  ['/api/agents/sales/message', salesMessage, { message: 'hello' }],
  ['/api/agents/customerSupport/message', customerSupportMessage, { message: 'hello' }],
  ['/api/agents/email/reply', emailReply, { from: 'a@example.com', subject: 's', text: 'hello' }],
  ['/api/agents/copywriter/content-editor', contentEditor, { content: 'hello', instruction: 'shorter' }],
] as const;

for (const [path, handler, body] of agentRoutes) {
  describe(`POST ${path}`, () => {
    for (const [name, present] of [
      ['Bearer', presenters.bearer],
      ['x-api-key', presenters.xApiKey],
    ] as const) {
      describe(`key as ${name}`, () => {
        // Read-only keys may talk to agents; their agent gets the read tools only (agents.test.ts).
        authMatrix({
          tenants,
          present,
          write: false,
          send: (h, siteId) => call(handler, { method: 'POST', path, headers: h, body: { site_id: siteId, ...body } }),
        });
      });
    }
    it('refuses a key in a header the agent routes do not read (401)', async () => {
      const res = await call(handler, { method: 'POST', path, headers: presenters.xSaApiKey(mine.key), body: { site_id: mine.siteId, ...body } });
      expect(res.status).toBe(401);
    });
  });
}

describe('GET /api/agents/conversations', () => {
  authMatrix({
    tenants,
    present: presenters.bearer,
    write: false,
    send: (h, siteId) => call(listConversations, { path: '/api/agents/conversations', query: { site_id: siteId }, headers: h }),
  });
});

describe('GET /api/agents/conversations/{conversation_id}', () => {
  authMatrix({
    tenants,
    present: presenters.xApiKey,
    write: false,
    send: (h, siteId) =>
      call(getConversation, {
        path: `/api/agents/conversations/${conversationId}`,
        params: { conversation_id: conversationId },
        query: { site_id: siteId },
        headers: h,
      }),
  });
});
