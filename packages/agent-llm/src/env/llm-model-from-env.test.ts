import { describe, expect, it } from 'vitest';
import { LLM_PROVIDERS, llmModelFromEnv } from './llm-model-from-env.js';

describe('llmModelFromEnv', () => {
  it('is off when nothing is set', () => {
    expect(llmModelFromEnv({})).toBeUndefined();
    expect(llmModelFromEnv({ OPENAI_API_KEY: 'sk' })).toBeUndefined();
  });

  it('builds each provider’s model with the provider package', () => {
    const keys = { A2UI_LLM_API_KEY: 'sk-test', AZURE_RESOURCE_NAME: 'res' };
    const built = LLM_PROVIDERS.map((provider) => {
      const configured = llmModelFromEnv({
        ...keys,
        A2UI_LLM_PROVIDER: provider,
        A2UI_LLM_MODEL: 'm',
        ...(provider === 'openai-compatible' ? { A2UI_LLM_BASE_URL: 'http://127.0.0.1:9/v1' } : {}),
      })!;
      return [configured.provider, configured.model.provider, configured.model.modelId];
    });
    expect(built).toEqual([
      ['openai', 'openai.responses', 'm'],
      ['openai-chat', 'openai.chat', 'm'],
      ['anthropic', 'anthropic.messages', 'm'],
      ['google', 'google.generative-ai', 'm'],
      ['azure', 'azure.responses', 'm'],
      ['azure-chat', 'azure.chat', 'm'],
      ['openai-compatible', 'openai-compatible.chat', 'm'],
      ['ollama', 'ollama.chat', 'm'],
      ['lmstudio', 'lmstudio.chat', 'm'],
    ]);
  });

  it('defaults local servers and reads the providers’ own key variables', () => {
    expect(
      llmModelFromEnv({ A2UI_LLM_PROVIDER: 'ollama', A2UI_LLM_MODEL: 'qwen2.5' }),
    ).toMatchObject({
      provider: 'ollama',
      baseUrl: 'http://localhost:11434/v1',
    });
    expect(
      llmModelFromEnv({
        A2UI_LLM_PROVIDER: 'Anthropic',
        A2UI_LLM_MODEL: 'c',
        ANTHROPIC_API_KEY: 'k',
      }),
    ).toMatchObject({ provider: 'anthropic', baseUrl: undefined });
    // A base URL alone means an OpenAI-compatible server (the demo's original configuration).
    expect(
      llmModelFromEnv({ A2UI_LLM_BASE_URL: 'http://localhost:1234/v1', A2UI_LLM_MODEL: 'local' }),
    ).toMatchObject({ provider: 'openai-compatible', modelId: 'local' });
  });

  it('explains an unusable configuration, naming the variable', () => {
    const problem = (env: Record<string, string>) => {
      try {
        llmModelFromEnv(env);
      } catch (error) {
        const failure = error as { code: string; message: string; data: { variable: string } };
        return [failure.code, failure.data.variable, failure.message];
      }
      return undefined;
    };
    expect(problem({ A2UI_LLM_MODEL: 'm' })?.slice(0, 2)).toEqual([
      'NOT_SUPPORTED',
      'A2UI_LLM_PROVIDER',
    ]);
    expect(problem({ A2UI_LLM_PROVIDER: 'skynet', A2UI_LLM_MODEL: 'm' })?.[2]).toContain(
      'use one of openai, openai-chat, anthropic',
    );
    expect(problem({ A2UI_LLM_PROVIDER: 'openai' })?.[1]).toBe('A2UI_LLM_MODEL');
    expect(problem({ A2UI_LLM_PROVIDER: 'openai', A2UI_LLM_MODEL: 'm' })).toEqual([
      'NOT_SUPPORTED',
      'A2UI_LLM_API_KEY',
      'The openai provider needs an API key: set A2UI_LLM_API_KEY (or OPENAI_API_KEY).',
    ]);
    expect(
      problem({ A2UI_LLM_PROVIDER: 'azure', A2UI_LLM_MODEL: 'd', AZURE_API_KEY: 'k' })?.[1],
    ).toBe('A2UI_LLM_BASE_URL');
    expect(problem({ A2UI_LLM_PROVIDER: 'openai-compatible', A2UI_LLM_MODEL: 'm' })?.[1]).toBe(
      'A2UI_LLM_BASE_URL',
    );
    expect(
      problem({
        A2UI_LLM_PROVIDER: 'ollama',
        A2UI_LLM_MODEL: 'm',
        A2UI_LLM_BASE_URL: 'file:///etc',
      })?.[2],
    ).toBe('A2UI_LLM_BASE_URL "file:///etc" is not an http(s) URL.');
  });
});
