import type { ErrorCode } from '@/lib/core/errors';
import recorded from './openapi-examples.json';

/**
 * Examples of the OpenAPI document, recorded from the test suites' own calls
 * (`npm run openapi:examples`, scripts/openapi-examples.ts): real requests and the answers the
 * routes gave, so they are valid by construction, and a unit test checks each against its schema.
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
  FORBIDDEN: error('FORBIDDEN', "This API key lacks the 'write' scope"),
  PLAN_LIMIT_REACHED: error('PLAN_LIMIT_REACHED', "This site's plan (basic) allows 50 webhook endpoints; remove some or move to a larger plan", {
    cap: 'webhook_endpoints_per_site',
    plan: 'basic',
    limit: 50,
    used: 50,
  }),
  NOT_FOUND: error('NOT_FOUND', 'Lead not found'),
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
  MODEL_NOT_CONFIGURED: error('MODEL_NOT_CONFIGURED', 'No language model is configured: set LLM_BASE_URL and LLM_MODEL (and LLM_API_KEY when the endpoint needs one)'),
};

const file = recorded as unknown as Partial<ExampleSet>;
export const recordedExamples: ExampleSet = {
  operations: file.operations ?? {},
  errors: { ...ERROR_EXAMPLES, ...file.errors },
};
