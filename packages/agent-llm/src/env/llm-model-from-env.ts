/**
 * The one place where the LLM agent's provider, model, key and base URL are read from the
 * environment, and turned into an AI SDK model.
 */

import { A2uiError } from '@a2ui-ts/core';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createAzure } from '@ai-sdk/azure';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV3 } from '@ai-sdk/provider';

/** The providers `A2UI_LLM_PROVIDER` can name. */
export const LLM_PROVIDERS = [
  /** OpenAI, Responses API (`@ai-sdk/openai`). */
  'openai',
  /** OpenAI, Chat Completions API. */
  'openai-chat',
  /** Anthropic Messages API (`@ai-sdk/anthropic`). */
  'anthropic',
  /** Google Gemini API (`@ai-sdk/google`). */
  'google',
  /** Azure OpenAI, Responses API (`@ai-sdk/azure`); the model is the deployment name. */
  'azure',
  /** Azure OpenAI, Chat Completions API. */
  'azure-chat',
  /** Any OpenAI-compatible chat-completions endpoint (`@ai-sdk/openai-compatible`); needs a base URL. */
  'openai-compatible',
  /** Ollama's OpenAI-compatible endpoint, `http://localhost:11434/v1` unless a base URL is set. */
  'ollama',
  /** LM Studio's OpenAI-compatible endpoint, `http://localhost:1234/v1` unless a base URL is set. */
  'lmstudio',
] as const;

/** A provider `A2UI_LLM_PROVIDER` can name. */
export type LlmProviderName = (typeof LLM_PROVIDERS)[number];

/** The variables {@link llmModelFromEnv} reads (other keys are ignored). */
export interface LlmEnvironment {
  /** One of {@link LLM_PROVIDERS}. @default `openai-compatible` when `A2UI_LLM_BASE_URL` is set */
  A2UI_LLM_PROVIDER?: string;
  /** Model id (Azure: deployment name). Unset (with the others): the LLM agent is off. */
  A2UI_LLM_MODEL?: string;
  /** API key. @default the provider's own variable (below) */
  A2UI_LLM_API_KEY?: string;
  /** Base URL of the API (a proxy, a local server, an Azure `…/openai` endpoint). */
  A2UI_LLM_BASE_URL?: string;
  OPENAI_API_KEY?: string;
  ANTHROPIC_API_KEY?: string;
  GOOGLE_GENERATIVE_AI_API_KEY?: string;
  AZURE_API_KEY?: string;
  /** Azure resource name, when no base URL is given. */
  AZURE_RESOURCE_NAME?: string;
  [name: string]: string | undefined;
}

/** A configured model and what it was configured from. */
export interface LlmModelFromEnv {
  readonly model: LanguageModelV3;
  readonly provider: LlmProviderName;
  readonly modelId: string;
  /** The base URL in use, or `undefined` for the provider's default endpoint. */
  readonly baseUrl: string | undefined;
}

/** Options of {@link llmModelFromEnv}. */
export interface LlmModelFromEnvOptions {
  /** Passed to the provider (a proxy, recording in tests). @default globalThis.fetch */
  fetch?: typeof globalThis.fetch;
}

const PROVIDER_KEYS: Partial<Record<LlmProviderName, keyof LlmEnvironment>> = {
  openai: 'OPENAI_API_KEY',
  'openai-chat': 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GOOGLE_GENERATIVE_AI_API_KEY',
  azure: 'AZURE_API_KEY',
  'azure-chat': 'AZURE_API_KEY',
};

const LOCAL_BASE_URLS: Partial<Record<LlmProviderName, string>> = {
  ollama: 'http://localhost:11434/v1',
  lmstudio: 'http://localhost:1234/v1',
};

/**
 * Reads `A2UI_LLM_PROVIDER`, `A2UI_LLM_MODEL`, `A2UI_LLM_API_KEY` and `A2UI_LLM_BASE_URL` and
 * builds the model with the provider's AI SDK package:
 *
 * | `A2UI_LLM_PROVIDER` | Package, API | Key (`A2UI_LLM_API_KEY` or) | Base URL |
 * |---|---|---|---|
 * | `openai` / `openai-chat` | `@ai-sdk/openai`, Responses / Chat Completions | `OPENAI_API_KEY` | optional |
 * | `anthropic` | `@ai-sdk/anthropic`, Messages | `ANTHROPIC_API_KEY` | optional |
 * | `google` | `@ai-sdk/google`, Gemini `streamGenerateContent` | `GOOGLE_GENERATIVE_AI_API_KEY` | optional |
 * | `azure` / `azure-chat` | `@ai-sdk/azure`, Responses / Chat Completions | `AZURE_API_KEY` | `https://<resource>.openai.azure.com/openai`, or `AZURE_RESOURCE_NAME` |
 * | `openai-compatible` | `@ai-sdk/openai-compatible`, Chat Completions | optional | required |
 * | `ollama` / `lmstudio` | `@ai-sdk/openai-compatible` | optional | `http://localhost:11434/v1` / `http://localhost:1234/v1` |
 *
 * Without `A2UI_LLM_PROVIDER`, a set `A2UI_LLM_BASE_URL` means `openai-compatible`.
 *
 * @param env - the variables @default `process.env`
 * @returns the model, or `undefined` when none of the `A2UI_LLM_*` variables is set (LLM off)
 * @throws A2uiError `NOT_SUPPORTED` when the configuration is set but unusable: an unknown
 *   provider, no model, a hosted provider without a key, a missing or malformed base URL; the
 *   message names the variable to fix and `data.variable` holds it
 *
 * @example
 * ```ts
 * // A2UI_LLM_PROVIDER=anthropic A2UI_LLM_MODEL=claude-sonnet-4-5 ANTHROPIC_API_KEY=…
 * const configured = llmModelFromEnv();
 * if (configured) createLlmAgent({ model: configured.model });
 * ```
 */
export function llmModelFromEnv(
  env: LlmEnvironment = (globalThis as { process?: { env: LlmEnvironment } }).process?.env ?? {},
  options: LlmModelFromEnvOptions = {},
): LlmModelFromEnv | undefined {
  const read = (name: keyof LlmEnvironment) => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const requested = read('A2UI_LLM_PROVIDER')?.toLowerCase();
  const modelId = read('A2UI_LLM_MODEL');
  const configuredBaseUrl = read('A2UI_LLM_BASE_URL');
  if (requested === undefined && modelId === undefined && configuredBaseUrl === undefined)
    return undefined;
  const provider = (requested ??
    (configuredBaseUrl !== undefined ? 'openai-compatible' : undefined)) as
    | LlmProviderName
    | undefined;
  if (provider === undefined || !LLM_PROVIDERS.includes(provider)) {
    throw configurationError(
      'A2UI_LLM_PROVIDER',
      `${provider === undefined ? 'A2UI_LLM_PROVIDER is not set' : `A2UI_LLM_PROVIDER "${provider}" is not a provider`}; use one of ${LLM_PROVIDERS.join(', ')}.`,
    );
  }
  if (modelId === undefined)
    throw configurationError('A2UI_LLM_MODEL', `Set A2UI_LLM_MODEL to a ${provider} model id.`);
  const baseUrl = configuredBaseUrl ?? LOCAL_BASE_URLS[provider];
  if (baseUrl !== undefined) checkBaseUrl(baseUrl);
  const providerKey = PROVIDER_KEYS[provider];
  const apiKey = read('A2UI_LLM_API_KEY') ?? (providerKey ? read(providerKey) : undefined);
  if (providerKey && apiKey === undefined) {
    throw configurationError(
      'A2UI_LLM_API_KEY',
      `The ${provider} provider needs an API key: set A2UI_LLM_API_KEY (or ${providerKey}).`,
    );
  }
  const common = { apiKey, baseURL: baseUrl, fetch: options.fetch };
  let model: LanguageModelV3;
  switch (provider) {
    case 'openai':
      model = createOpenAI(common).responses(modelId);
      break;
    case 'openai-chat':
      model = createOpenAI(common).chat(modelId);
      break;
    case 'anthropic':
      model = createAnthropic(common)(modelId);
      break;
    case 'google':
      model = createGoogleGenerativeAI(common)(modelId);
      break;
    case 'azure':
    case 'azure-chat': {
      const resourceName = read('AZURE_RESOURCE_NAME');
      if (baseUrl === undefined && resourceName === undefined) {
        throw configurationError(
          'A2UI_LLM_BASE_URL',
          'The azure provider needs A2UI_LLM_BASE_URL (https://<resource>.openai.azure.com/openai) or AZURE_RESOURCE_NAME.',
        );
      }
      const azure = createAzure({ ...common, resourceName });
      model = provider === 'azure' ? azure.responses(modelId) : azure.chat(modelId);
      break;
    }
    default: {
      if (baseUrl === undefined) {
        throw configurationError(
          'A2UI_LLM_BASE_URL',
          `The ${provider} provider needs A2UI_LLM_BASE_URL, e.g. http://localhost:11434/v1.`,
        );
      }
      model = createOpenAICompatible({
        ...common,
        baseURL: baseUrl,
        name: provider,
        includeUsage: true,
      })(modelId);
    }
  }
  return { model, provider, modelId, baseUrl };
}

function checkBaseUrl(baseUrl: string): void {
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw configurationError(
      'A2UI_LLM_BASE_URL',
      `A2UI_LLM_BASE_URL "${baseUrl}" is not an http(s) URL.`,
    );
  }
}

function configurationError(variable: string, message: string): A2uiError {
  return new A2uiError('NOT_SUPPORTED', message, { data: { variable } });
}
