/**
 * TextField (§9): short text, long text, number or obscured input, two-way bound (§7.6), showing
 * its first failing check (§8.4).
 */
import { checkResultOf } from '@a2ui-ts/core';
import { useId, useMemo } from 'react';
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import { isV1Surface } from '../renderer/surface-version.js';
import {
  FieldLabelElement,
  fieldInputAttributes,
  fieldLabel,
  fieldRootAttributes,
  hasContent,
  optionalText,
  text,
  useAccessibility,
  useFieldValidation,
  useTwoWayValue,
} from './component-helpers.js';

/** Resolved props of TextField. */
export interface TextFieldProps {
  readonly label?: unknown;
  readonly value?: unknown;
  /** @default 'shortText' */
  readonly variant?: 'shortText' | 'longText' | 'number' | 'obscured';
  /**
   * Legacy pattern the whole value must match; checked with the catalog's linear-time `regex`.
   * v0.9 only: the v1.0 catalog dropped it for `checks`, so a v1.0 surface ignores it.
   */
  readonly validationRegexp?: unknown;
  /** v1.0: hint text shown while the field is empty (never its label: that stays `label`). */
  readonly placeholder?: unknown;
}

/** Shown when `validationRegexp` does not match (the property carries no message of its own). */
export const VALIDATION_REGEXP_MESSAGE = 'Invalid format';

/**
 * A labelled `<input>` (`<textarea>` for longText). Every keystroke writes the string to the
 * bound path at once; `number` keeps a string too (the schema types the value as a string) and
 * asks for a numeric keyboard.
 */
export function TextField({ id, props, validation, node }: A2uiComponentProps<TextFieldProps>) {
  const a11y = useAccessibility(props);
  const inputId = useId();
  const [rawValue, setValue] = useTwoWayValue(node, 'value', props.value);
  const value = text(rawValue);
  const pattern =
    typeof props.validationRegexp === 'string' && !isV1Surface(node.surface)
      ? props.validationRegexp
      : undefined;
  // validationRegexp predates checks; run it through the catalog's RE2-based `regex` so an
  // agent-supplied pattern cannot freeze the page (a2ui-project/a2ui#2366).
  const patternFails = useMemo(
    () =>
      pattern !== undefined &&
      value !== '' &&
      node.dataContext.evaluate({ call: 'regex', args: { value, pattern } }) === false,
    [node, pattern, value],
  );
  const combined = patternFails
    ? checkResultOf([
        ...(validation.failures ?? []),
        { message: VALIDATION_REGEXP_MESSAGE, severity: 'error' },
      ])
    : validation;
  const field = useFieldValidation(node, combined, hasContent(value));
  const label = fieldLabel(props.label, a11y.label, id);
  const variant = props.variant;
  const common = {
    id: inputId,
    className: 'a2ui-input',
    value,
    placeholder: optionalText(props.placeholder),
    ...fieldInputAttributes(label, a11y, field),
  } as const;
  return (
    <div {...fieldRootAttributes(id, props, 'a2ui-text-field', field)}>
      <FieldLabelElement label={label} htmlFor={inputId} required={field.required} />
      {variant === 'longText' ? (
        <textarea
          {...common}
          rows={3}
          onChange={(event) => {
            field.touch();
            setValue(event.target.value);
          }}
        />
      ) : (
        <input
          {...common}
          type={variant === 'obscured' ? 'password' : 'text'}
          inputMode={variant === 'number' ? 'decimal' : undefined}
          onChange={(event) => {
            field.touch();
            setValue(event.target.value);
          }}
        />
      )}
      {field.messageElement}
      {a11y.descriptionElement}
    </div>
  );
}
