/**
 * DateTimeInput (§9): a native date, time or date-and-time picker two-way bound to an ISO 8601
 * string (§7.6), with `min`/`max`.
 */
import { useId } from 'react';
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import {
  FieldLabelElement,
  fieldInputAttributes,
  fieldLabel,
  fieldRootAttributes,
  hasContent,
  useAccessibility,
  useFieldValidation,
  useTwoWayValue,
} from './component-helpers.js';
import { fromInputValue, toDateTimeMode, toInputValue } from './date-time-value.js';

/** Resolved props of DateTimeInput. */
export interface DateTimeInputProps {
  /** ISO 8601 date, time or date-time; `""` when unset. */
  readonly value?: unknown;
  /** @default false */
  readonly enableDate?: unknown;
  /** @default false */
  readonly enableTime?: unknown;
  readonly min?: unknown;
  readonly max?: unknown;
  readonly label?: unknown;
}

const INPUT_TYPES = { date: 'date', time: 'time', datetime: 'datetime-local' } as const;

/** Shows the model value in local time and writes ISO 8601 back on every change. */
export function DateTimeInput({
  id,
  props,
  validation,
  node,
}: A2uiComponentProps<DateTimeInputProps>) {
  const a11y = useAccessibility(props);
  const inputId = useId();
  const mode = toDateTimeMode(props.enableDate, props.enableTime);
  const [rawValue, setValue] = useTwoWayValue(node, 'value', props.value);
  const field = useFieldValidation(node, validation, hasContent(rawValue));
  const label = fieldLabel(props.label, a11y.label, id);
  const min = toInputValue(props.min, mode);
  const max = toInputValue(props.max, mode);
  return (
    <div {...fieldRootAttributes(id, props, 'a2ui-date-time-input', field)}>
      <FieldLabelElement label={label} htmlFor={inputId} required={field.required} />
      <input
        id={inputId}
        className="a2ui-input"
        type={INPUT_TYPES[mode]}
        value={toInputValue(rawValue, mode)}
        min={min || undefined}
        max={max || undefined}
        {...fieldInputAttributes(label, a11y, field)}
        onChange={(event) => {
          field.touch();
          setValue(fromInputValue(event.target.value, mode, rawValue));
        }}
      />
      {field.messageElement}
      {a11y.descriptionElement}
    </div>
  );
}
