import { describe, expect, it } from 'vitest';
import {
  emailValidationResult,
  INVALID_EMAIL_CODE,
  INVALID_EMAIL_MESSAGE,
} from './email-validation-result.js';
import { createTestFunctionContext } from './test-function-context.js';

describe('v1.0 email', () => {
  it('returns a ValidationResult: valid, or INVALID_EMAIL with a message', () => {
    const context = createTestFunctionContext();
    expect(emailValidationResult.execute({ value: 'a@example.com' }, context)).toEqual({
      valid: true,
    });
    expect(emailValidationResult.execute({ value: 'nope' }, context)).toEqual({
      valid: false,
      code: INVALID_EMAIL_CODE,
      message: INVALID_EMAIL_MESSAGE,
      severity: 'error',
    });
  });
});
