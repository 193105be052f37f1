/**
 * Tool-call arguments nested too deep never reach the AI SDK's own handling: it parses them,
 * validates them and stringifies them (telemetry, the next prompt) with recursive walks, so
 * arguments 5,000 levels deep would end the turn with a stack overflow and the model would never
 * hear why. The model's stream is filtered instead: such a call's arguments become a small
 * placeholder, and the caller is told, to answer the call as invalid.
 */
import { tryParseJson } from '@a2ui-ts/core/link';
import { type LanguageModel, wrapLanguageModel } from 'ai';
import { argumentDepthIssue, MAX_ARGUMENT_DEPTH } from '../render/render-stream.js';

/** What a refused call's arguments become (valid JSON the SDK and any provider can carry). */
export const DEEP_ARGUMENTS_PLACEHOLDER = JSON.stringify({
  omitted: `arguments nested deeper than ${MAX_ARGUMENT_DEPTH} levels`,
});

/**
 * `model` with the arguments of each tool call checked for depth before the AI SDK reads them.
 *
 * @param model - the language model (a model id string is passed through: the gateway's models
 *   cannot be wrapped here)
 * @param onRefused - told the id of each call whose arguments were replaced
 * @example
 * ```ts
 * const refused = new Set<string>();
 * streamText({ model: boundToolArguments(model, (id) => refused.add(id)), … });
 * ```
 */
export function boundToolArguments(
  model: LanguageModel,
  onRefused: (toolCallId: string) => void,
): LanguageModel {
  if (typeof model === 'string' || model.specificationVersion !== 'v3') return model;
  return wrapLanguageModel({
    model,
    middleware: {
      specificationVersion: 'v3',
      async wrapStream({ doStream }) {
        const { stream, ...rest } = await doStream();
        return {
          ...rest,
          stream: stream.pipeThrough(
            new TransformStream({
              transform(part, controller) {
                if (part.type === 'tool-call' && isTooDeep(part.input)) {
                  onRefused(part.toolCallId);
                  controller.enqueue({ ...part, input: DEEP_ARGUMENTS_PLACEHOLDER });
                  return;
                }
                controller.enqueue(part);
              },
            }),
          ),
        };
      },
    },
  });
}

/** True when `input` (the arguments' JSON text) parses to something nested too deep. */
function isTooDeep(input: string): boolean {
  // JSON.parse does not recurse; the depth walk does not either.
  const value = tryParseJson(input);
  return value !== undefined && argumentDepthIssue(value) !== undefined;
}
