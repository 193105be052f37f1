/** Test helpers that read what the agent asked the model (an AI SDK `LanguageModelV3Prompt`). */
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';

type Prompt = LanguageModelV3CallOptions['prompt'];

/** Every tool result in the prompt, with its output value (JSON or error text). */
export function toolResults(
  prompt: Prompt,
): Array<{ toolCallId: string; toolName: string; type: string; value: unknown }> {
  return prompt.flatMap((message) =>
    message.role === 'tool'
      ? message.content.flatMap((part) =>
          part.type === 'tool-result'
            ? [
                {
                  toolCallId: part.toolCallId,
                  toolName: part.toolName,
                  type: part.output.type,
                  value: 'value' in part.output ? part.output.value : undefined,
                },
              ]
            : [],
        )
      : [],
  );
}

/** The text of every user message, in order. */
export function userTexts(prompt: Prompt): string[] {
  return prompt.flatMap((message) =>
    message.role === 'user'
      ? [message.content.map((part) => (part.type === 'text' ? part.text : '')).join('')]
      : [],
  );
}

/** The system prompt. */
export function systemText(prompt: Prompt): string {
  return prompt
    .filter((message) => message.role === 'system')
    .map((message) => message.content)
    .join('\n');
}
