import { POST as cmoMessage } from '@/app/api/agents/cmo/message/route';
import { presenters } from './auth-matrix';
import { call, type Tenant } from './harness';

/** POST /api/agents/cmo/message: `message` to the tenant's CMO agent with its key (Bearer); answers 202 with the command. */
export const messageCmo = (t: Tenant, message: string) =>
  call(cmoMessage, { method: 'POST', path: '/api/agents/cmo/message', headers: presenters.bearer(t.key), body: { site_id: t.siteId, message } });
