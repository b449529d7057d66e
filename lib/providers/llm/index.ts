import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';
import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { defineProvider, provider } from '@/lib/core/providers';

/**
 * The language model behind the agents: any OpenAI-compatible chat-completions endpoint
 * (OpenAI, a gateway, a local server), through the AI SDK. Requests go to LLM_BASE_URL only.
 * Without LLM_BASE_URL and LLM_MODEL every caller gets 503 MODEL_NOT_CONFIGURED — an agent
 * never answers without a model.
 */
export interface AgentModel {
  model: LanguageModel;
  /** Whole-run budget of one command (all steps and tool calls). */
  timeoutMs: number;
  /** At most this many model calls (tool-call rounds) per command. */
  maxSteps: number;
  /** Retries of a failed model call (5xx, network) before the command fails. */
  maxRetries: number;
}

export interface AgentModelSettings {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  maxSteps: number;
  maxRetries: number;
}

export function openAICompatibleModel(s: AgentModelSettings): AgentModel {
  const endpoint = createOpenAICompatible({
    name: 'llm',
    baseURL: s.baseUrl.replace(/\/+$/, ''),
    apiKey: s.apiKey,
    // Token usage of streamed answers (stream_options.include_usage), recorded per command.
    includeUsage: true,
  });
  return { model: endpoint.chatModel(s.model), timeoutMs: s.timeoutMs, maxSteps: s.maxSteps, maxRetries: s.maxRetries };
}

export const modelNotConfigured = () =>
  new ApiError(
    'MODEL_NOT_CONFIGURED',
    'No language model is configured: set LLM_BASE_URL and LLM_MODEL (and LLM_API_KEY when the endpoint needs one)',
  );

declare module '@/lib/core/providers' {
  interface ProviderMap {
    llm: AgentModel;
  }
}

defineProvider('llm', () => {
  const c = config();
  if (!c.LLM_BASE_URL || !c.LLM_MODEL) throw modelNotConfigured();
  return openAICompatibleModel({
    baseUrl: c.LLM_BASE_URL,
    apiKey: c.LLM_API_KEY,
    model: c.LLM_MODEL,
    timeoutMs: c.LLM_TIMEOUT_MS,
    maxSteps: c.LLM_MAX_STEPS,
    maxRetries: c.LLM_MAX_RETRIES,
  });
});

/** The configured model; 503 MODEL_NOT_CONFIGURED when there is none. */
export const agentModel = (): AgentModel => provider('llm');

/** Whether an agent can answer here (a model is configured), for pages that say so before anyone writes. */
export function modelConfigured(): boolean {
  try {
    agentModel();
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'MODEL_NOT_CONFIGURED') return false;
    throw error;
  }
}
