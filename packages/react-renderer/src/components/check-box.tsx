/**
 * CheckBox (§9): a labelled checkbox two-way bound to a boolean (§7.6).
 */
import { toBoolean } from '@a2ui-ts/core';
import { useId } from 'react';
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import {
  FieldLabelElement,
  fieldInputAttributes,
  fieldLabel,
  fieldRootAttributes,
  useAccessibility,
  useFieldValidation,
  useTwoWayValue,
} from './component-helpers.js';

/** Resolved props of CheckBox. */
export interface CheckBoxProps {
  readonly label?: unknown;
  /** Coerced with the spec's boolean rules (§7.5): `"true"`, non-zero numbers, `true`. */
  readonly value?: unknown;
}

/** A native checkbox; each toggle writes `true`/`false` to the bound path. */
export function CheckBox({ id, props, validation, node }: A2uiComponentProps<CheckBoxProps>) {
  const a11y = useAccessibility(props);
  const inputId = useId();
  const [rawValue, setValue] = useTwoWayValue(node, 'value', props.value);
  const checked = toBoolean(rawValue);
  const field = useFieldValidation(node, validation, false);
  const label = fieldLabel(props.label, a11y.label, id);
  return (
    <div {...fieldRootAttributes(id, props, 'a2ui-check-box', field)}>
      <div className="a2ui-check-box-row">
        <input
          id={inputId}
          className="a2ui-check-box-input"
          type="checkbox"
          checked={checked}
          {...fieldInputAttributes(label, a11y, field)}
          onChange={(event) => {
            field.touch();
            setValue(event.target.checked);
          }}
        />
        <FieldLabelElement label={label} htmlFor={inputId} required={field.required} />
      </div>
      {field.messageElement}
      {a11y.descriptionElement}
    </div>
  );
}
