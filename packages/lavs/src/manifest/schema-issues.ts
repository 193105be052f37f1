/**
 * Ajv's errors as the runtime reports them: a JSON Pointer to the offending value and Ajv's own
 * wording (`must have required property 'command'`), which names the rule and never the
 * runtime's internals.
 */
import { formatPointer } from '@a2ui-ts/core';
import type { ErrorObject } from 'ajv';

/** One schema violation. */
export interface SchemaIssue {
  /** JSON Pointer (RFC 6901) to the value at fault; for a missing property, to where it belongs. */
  pointer: string;
  message: string;
}

/** Ajv's errors as {@link SchemaIssue}s, a missing property's pointer ending in its name. */
export function toSchemaIssues(
  errors: readonly ErrorObject[] | null | undefined,
  prefix = '',
): SchemaIssue[] {
  return (errors ?? []).map((error) => {
    const at = `${prefix}${error.instancePath}`;
    if (error.keyword === 'required')
      return {
        pointer: `${at}${formatPointer([String(error.params.missingProperty)])}`,
        message: error.message!,
      };
    // ajv's own wording (`value of tag "type" must be in oneOf`) names its keyword, not the field.
    if (error.keyword === 'discriminator' && error.params.error === 'mapping')
      return {
        pointer: `${at}${formatPointer([String(error.params.tag)])}`,
        message: `${JSON.stringify(error.params.tagValue)} is not a known ${String(error.params.tag)}`,
      };
    return { pointer: at, message: error.message ?? `breaks "${error.keyword}"` };
  });
}

/** `pointer: message` lines, for an error message. */
export function describeIssues(issues: readonly SchemaIssue[]): string {
  return issues.map((issue) => `${issue.pointer || '/'} ${issue.message}`).join('; ');
}
