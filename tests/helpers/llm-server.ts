import http from 'node:http';
import { resetConfig } from '@/lib/core/config';
import { listenInTestRange } from './serve';

/**
 * A local stand-in for an OpenAI-compatible model endpoint: `POST /v1/chat/completions`, plain
 * JSON or `stream: true` server-sent chunks, with tool calls and token usage. Tests script its
 * turns; every request it received is kept for assertions (tools offered, messages, system prompt).
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content?: string | null | { type: string; text?: string }[];
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools?: { type: 'function'; function: { name: string; description?: string; parameters: Record<string, any> } }[];
  stream?: boolean;
  authorization?: string;
}

export type Turn =
  { text: string } | { toolCalls: { name: string; arguments: unknown }[] } | { status: number; message: string } | { delayMs: number; then: Turn };

/** Chooses the answer to a request; the default echoes the last user message. */
export type Script = (req: ChatRequest) => Turn;

export const USAGE = { prompt_tokens: 21, completion_tokens: 8, total_tokens: 29 };

export const textOf = (m: ChatMessage | undefined): string =>
  !m?.content ? '' : typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? '').join('');

const lastUser = (req: ChatRequest) => textOf([...req.messages].reverse().find((m) => m.role === 'user'));

export interface LlmStandIn {
  /** Base URL for LLM_BASE_URL (ends with /v1). */
  url: string;
  requests: ChatRequest[];
  /** Answers the next requests with these turns, in order; then the script (or echo) again. */
  queue(...turns: Turn[]): void;
  script: Script | undefined;
  reset(): void;
  close(): Promise<void>;
}

let ids = 0;

function chunk(delta: Record<string, unknown>, finish: string | null) {
  return {
    id: 'chatcmpl-standin',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'stand-in',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

function answer(res: http.ServerResponse, req: ChatRequest, turn: Turn): void {
  if ('delayMs' in turn) {
    const timer = setTimeout(() => !res.destroyed && answer(res, req, turn.then), turn.delayMs);
    res.on('close', () => clearTimeout(timer));
    return;
  }
  if ('status' in turn) {
    res
      .writeHead(turn.status, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message: turn.message, type: 'server_error' } }));
    return;
  }
  const toolCalls =
    'toolCalls' in turn
      ? turn.toolCalls.map((c) => ({
          id: `call_${++ids}`,
          type: 'function' as const,
          function: { name: c.name, arguments: JSON.stringify(c.arguments) },
        }))
      : undefined;
  const text = 'text' in turn ? turn.text : '';
  const finish = toolCalls ? 'tool_calls' : 'stop';
  if (!req.stream) {
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: 'chatcmpl-standin',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: req.model,
        choices: [
          { index: 0, message: { role: 'assistant', content: text || null, ...(toolCalls ? { tool_calls: toolCalls } : {}) }, finish_reason: finish },
        ],
        usage: USAGE,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  send(chunk({ role: 'assistant', content: '' }, null));
  // The text in a few pieces, as a model streams it.
  for (const piece of text.match(/.{1,7}/gs) ?? []) send(chunk({ content: piece }, null));
  toolCalls?.forEach((c, index) => send(chunk({ tool_calls: [{ index, ...c }] }, null)));
  send(chunk({}, finish));
  send({ id: 'chatcmpl-standin', object: 'chat.completion.chunk', created: 1_700_000_000, model: req.model, choices: [], usage: USAGE });
  res.end('data: [DONE]\n\n');
}

export async function startLlmStandIn(apiKey = 'standin-key'): Promise<LlmStandIn> {
  const pending: Turn[] = [];
  const state: LlmStandIn = {
    url: '',
    requests: [],
    queue: (...turns) => void pending.push(...turns),
    script: undefined,
    reset: () => {
      pending.length = 0;
      state.requests.length = 0;
      state.script = undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      if (req.headers.authorization !== `Bearer ${apiKey}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'bad key' } }));
        return;
      }
      const body = JSON.parse(raw) as ChatRequest;
      state.requests.push({ ...body, authorization: req.headers.authorization });
      const turn = pending.shift() ?? state.script?.(body) ?? { text: `Echo: ${lastUser(body)}` };
      answer(res, body, turn);
    });
  });
  const port = await listenInTestRange(server);
  state.url = `http://127.0.0.1:${port}/v1`;
  return state;
}

/** Points the app at the stand-in (LLM_* variables); the returned function unsets them again. */
export function useStandIn(standIn: LlmStandIn, extra: Record<string, string> = {}): () => void {
  const vars: Record<string, string> = {
    LLM_BASE_URL: standIn.url,
    LLM_API_KEY: 'standin-key',
    LLM_MODEL: 'stand-in-model',
    LLM_MAX_RETRIES: '0',
    ...extra,
  };
  for (const [k, v] of Object.entries(vars)) process.env[k] = v;
  resetConfig();
  return () => {
    for (const k of Object.keys(vars)) delete process.env[k];
    resetConfig();
  };
}
