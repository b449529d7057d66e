import type { ErrorCode } from '@/lib/core/errors';
import recorded from './openapi-examples.json';

/**
 * Examples of the OpenAPI document, recorded from the test suites' own calls
 * (`npm run openapi:examples`, scripts/openapi-examples.ts): real requests and the answers the
 * routes gave. Where the suites record none, they are written below from the same fixtures. A unit
 * test (tests/unit/openapi-examples.test.ts) checks that every operation has them and that each
 * matches its schema.
 */
export interface OperationExamples {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  request?: unknown;
  /** Answer bodies by HTTP status. */
  responses?: Record<string, unknown>;
}

export type ErrorExamples = Record<ErrorCode, unknown>;

export interface ExampleSet {
  /** By `METHOD /path` as the document writes it. */
  operations: Record<string, OperationExamples>;
  errors: ErrorExamples;
}

const REQUEST_ID = '5b0e9c1e-8f61-4d7e-9a52-2f0f3c1d7a44';
const error = (code: ErrorCode, message: string, details?: Record<string, unknown>) => ({
  success: false,
  error: { code, message, ...(details ? { details } : {}), request_id: REQUEST_ID },
});

/** Each code's example, as the routes word it, where the suites recorded none. */
const ERROR_EXAMPLES: ErrorExamples = {
  UNAUTHORIZED: error('UNAUTHORIZED', 'Invalid API key'),
  OTP_REQUIRED: error('OTP_REQUIRED', 'Two-factor sign-in is on: send the code of your authenticator app (or a recovery code) as `otp`'),
  FORBIDDEN: error('FORBIDDEN', "This API key lacks the 'write' scope"),
  PLAN_LIMIT_REACHED: error('PLAN_LIMIT_REACHED', "This site's plan (basic) allows 50 webhook endpoints; remove some or move to a larger plan", {
    cap: 'webhook_endpoints_per_site',
    plan: 'basic',
    limit: 50,
    used: 50,
  }),
  NOT_FOUND: error('NOT_FOUND', 'Lead not found'),
  METHOD_NOT_ALLOWED: error('METHOD_NOT_ALLOWED', 'DELETE is not a method of /api/visitors/track'),
  INVALID_REQUEST: error('INVALID_REQUEST', 'Invalid request body', { issues: [{ path: ['email'], message: 'Invalid email address' }] }),
  INVALID_SITE_ID: error('INVALID_SITE_ID', 'site_id is required'),
  INVALID_LIMIT: error('INVALID_LIMIT', 'limit must be an integer from 1 to 100'),
  INSUFFICIENT_CREDITS: error('INSUFFICIENT_CREDITS', 'Not enough finder credits'),
  session_not_found: error('session_not_found', 'Session not found or expired'),
  CONFLICT: error('CONFLICT', 'A lead with this email already exists for this site'),
  PAYLOAD_TOO_LARGE: error('PAYLOAD_TOO_LARGE', 'Request body exceeds 1048576 bytes', { max_bytes: 1048576 }),
  UNPROCESSABLE: error('UNPROCESSABLE', 'The migration was refused'),
  RATE_LIMITED: error('RATE_LIMITED', 'Rate limit exceeded: 60 requests per minute', { limit: 60, retry_after: 12 }),
  SYSTEM_ERROR: error('SYSTEM_ERROR', 'Internal server error'),
  WORKFLOW_EXECUTION_ERROR: error('WORKFLOW_EXECUTION_ERROR', 'The command could not be started; it is recorded as failed'),
  WORKFLOW_QUERY_ERROR: error('WORKFLOW_QUERY_ERROR', 'The workflow runs could not be read'),
  PROVIDER_ERROR: error('PROVIDER_ERROR', 'The SMTP server did not accept the message'),
  PROVIDER_NOT_CONFIGURED: error('PROVIDER_NOT_CONFIGURED', 'No people-data provider is configured'),
  MODEL_NOT_CONFIGURED: error(
    'MODEL_NOT_CONFIGURED',
    'No language model is configured: set LLM_BASE_URL and LLM_MODEL (and LLM_API_KEY when the endpoint needs one)',
  ),
  SERVICE_UNAVAILABLE: error('SERVICE_UNAVAILABLE', 'The database cannot be reached at the moment; try again shortly'),
};

const SITE = '3df6ddd1-33f9-4fb2-be72-78ac9a405131';
const LEAD = 'ab0dc2dd-858e-44a8-895d-d44b110684b9';
const SEGMENT = '9b1f2c4e-6a7d-4e3f-8c2b-1d5e7f9a0b3c';
const started = (name: string, runId: string) => ({
  202: { success: true, async: true, workflowId: `${name}-${SITE}-1795528238063-66503389`, runId, status: 'RUNNING' },
});
const message = (text: string) => ({ 200: { success: true, message: text } });
const leadsFound = { success: true, leads: [], total: 0, limit: 10, offset: 0, has_more: false };

/**
 * Operations whose success the suites reach only in ways the recorder does not keep (multipart
 * uploads, the MCP transport, a workflow started with another body, an answer status the suites
 * assert without reading its body), written from the same fixtures and answers. A recorded example
 * of the same status replaces one of these.
 */
const WRITTEN: ExampleSet['operations'] = {
  'POST /api/email/unsubscribe': {
    query: { token: 'eyJzIjoiM2RmNmRkZDEiLCJlIjoiYWRhQGV4YW1wbGUuY29tIn0.q1NnJ0vZ2l8qW6xk3m4rQ9yF1tB7cHd5eK2aLuPzS0w' },
    responses: message('Unsubscribed: no further email will be sent to this address'),
  },
  'POST /api/mcp': {
    request: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'getLeads', arguments: { site_id: SITE, search: 'hopper', limit: 10 } } },
    responses: {
      200: { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: JSON.stringify(leadsFound) }], structuredContent: leadsFound } },
    },
  },
  'POST /api/platform/tracking/event': {
    responses: {
      200: {
        success: true,
        data: {
          event_id: 'e58a9e6c-a303-45cb-8484-676e412fe01d',
          session_id: '8b3015d8-e2c1-49ac-bf77-a566a5ed2edc',
          visitor_id: 'f7c1dd38-7872-4a60-a41c-51850ee5543d',
          event_type: 'custom',
          timestamp: 1795527012733,
          stored: false,
          expires_at: 1795528812733,
        },
      },
    },
  },
  'POST /api/robots/instance/assistant': {
    request: {
      instance_id: 'eb10605d-0a81-4798-97da-e6e8f2a64b6a',
      message: 'Sign the guest book as Ada',
      tools: ['navigate', 'click', 'type', 'extract'],
    },
    responses: {
      202: {
        success: true,
        data: {
          async: true,
          workflowId: `prompt-robot-${SITE}-1795528240112-1c7e9a3d`,
          runId: '5f0c3b8e-2d47-4a19-9e6b-8c1f4d2a7e50',
          instance_id: 'eb10605d-0a81-4798-97da-e6e8f2a64b6a',
          status: 'RUNNING',
        },
      },
    },
  },
  'DELETE /api/sites/{site_id}/email-recipients/{recipient_id}': {
    params: { site_id: SITE, recipient_id: '0c2e4a6b-8d1f-4e3a-9b5c-7d9e1f3a5b7c' },
    responses: message('Recipient removed'),
  },
  'DELETE /api/sites/{site_id}/mailbox': {
    params: { site_id: SITE },
    responses: message('Mailbox removed; its password stays a secure token of the site until you delete it'),
  },
  'POST /api/leads/import': {
    query: { site_id: SITE },
    request: { file: 'contacts.csv', mapping: '{"E-mail":"email","Full name":"name","Company":"company","Plan":"plan"}' },
    responses: {
      200: {
        success: true,
        data: {
          import_id: 'c1a7e3b5-2d4f-4a6b-8c9d-0e1f2a3b4c5d',
          site_id: SITE,
          file_name: 'contacts.csv',
          status: 'completed',
          total_rows: 3,
          processed_rows: 3,
          created: 1,
          updated: 1,
          skipped: 1,
          errors: [{ row: 4, message: 'email: not an email address' }],
          failure: null,
          created_at: '2026-12-06T07:12:40.118Z',
          completed_at: '2026-12-06T07:12:40.342Z',
        },
      },
      202: {
        success: true,
        data: {
          import_id: 'd2b8f4c6-3e5a-4b7c-9d0e-1f2a3b4c5d6e',
          site_id: SITE,
          file_name: 'all-contacts.csv',
          status: 'queued',
          total_rows: 8421,
          processed_rows: 0,
          created: 0,
          updated: 0,
          skipped: 0,
          errors: [],
          failure: null,
          created_at: '2026-12-06T07:14:02.511Z',
          completed_at: null,
        },
      },
    },
  },
  'POST /api/visitors/upload': {
    request: { site_id: SITE, visitor_id: '670af103-0e89-4390-a1a7-92e71a859f31', type: 'avatar', file: 'me pic.png' },
    responses: {
      201: {
        success: true,
        data: {
          file_id: '2a4c6e8f-0b1d-4f3a-8c5e-7a9b1c3d5e7f',
          site_id: SITE,
          visitor_id: '670af103-0e89-4390-a1a7-92e71a859f31',
          type: 'avatar',
          file_name: 'me_pic.png',
          content_type: 'image/png',
          size: 67,
          storage: 'local',
          storage_key: `${SITE}/2a4c6e8f-0b1d-4f3a-8c5e-7a9b1c3d5e7f/me_pic.png`,
          created_at: '2026-11-24T13:38:12.927Z',
        },
      },
    },
  },
  'POST /api/workflow/buildCampaigns': {
    request: { site_id: SITE, segment_id: SEGMENT },
    responses: started('build-campaigns', '1b3d5f7a-9c2e-4b6d-8f0a-2c4e6a8b0d1f'),
  },
  'POST /api/workflow/buildContent': {
    request: { site_id: SITE, topic: 'Spring menu for bakeries', segment_id: SEGMENT },
    responses: started('build-content', '2c4e6a8b-0d1f-4c7e-9a1b-3d5f7a9c1e2a'),
  },
  'POST /api/workflow/buildSegmentsICP': {
    request: { site_id: SITE },
    responses: started('build-segments-icp', '3d5f7a9c-1e2a-4d8f-8b2c-4e6a8b0d2f3b'),
  },
  'POST /api/workflow/enrichLead': {
    request: {
      linkedin_profile: 'https://www.linkedin.com/in/ada-hopper',
      person_id: 'per_8f2k1m',
      site_id: SITE,
      userId: 'dec4de11-1fa8-487f-b10c-d7b63cdac22d',
      company_name: 'Acme Bakeries',
    },
    responses: started('enrich-lead', '4e6a8b0d-2f3b-4e9a-9c3d-5f7a9c1e3a4c'),
  },
  'POST /api/workflow/keyAccountGeneration': {
    request: { site_id: SITE, limit: 10 },
    responses: started('key-account-generation', '5f7a9c1e-3a4c-4f0b-8d4e-6a8b0d2f4b5d'),
  },
  'POST /api/workflow/leadResearch': {
    request: { site_id: SITE, lead_ids: [LEAD] },
    responses: started('lead-research', '6a8b0d2f-4b5d-4a1c-9e5f-7a9c1e3a5c6e'),
  },
};

/** `over`'s examples replacing `base`'s, operation by operation and, for answers, status by status. */
export function mergeExamples(base: ExampleSet['operations'], over: ExampleSet['operations']): ExampleSet['operations'] {
  const out = { ...base };
  for (const [key, entry] of Object.entries(over)) {
    out[key] = { ...base[key], ...entry, responses: { ...base[key]?.responses, ...entry.responses } };
  }
  return out;
}

const file = recorded as unknown as Partial<ExampleSet>;
export const recordedExamples: ExampleSet = {
  operations: mergeExamples(WRITTEN, file.operations ?? {}),
  errors: { ...ERROR_EXAMPLES, ...file.errors },
};
