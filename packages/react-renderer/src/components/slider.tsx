/**
 * Slider (§9): a labelled range input two-way bound to a number (§7.6).
 */
import { toNumber } from '@a2ui-ts/core';
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

/** Resolved props of Slider. */
export interface SliderProps {
  readonly label?: unknown;
  /** @default 0 */
  readonly min?: unknown;
  readonly max?: unknown;
  readonly value?: unknown;
}

const finite = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/**
 * `<input type="range">` with the current value shown beside it. The step is 1 when min, max and
 * value are integers, else any (decimals are allowed, §9). Writes a number.
 */
export function Slider({ id, props, validation, node }: A2uiComponentProps<SliderProps>) {
  const a11y = useAccessibility(props);
  const inputId = useId();
  const min = finite(props.min, 0);
  const max = Math.max(min, finite(props.max, 100));
  const [rawValue, setValue] = useTwoWayValue(node, 'value', props.value);
  const value = Math.min(max, Math.max(min, toNumber(rawValue)));
  const integral = Number.isInteger(min) && Number.isInteger(max) && Number.isInteger(value);
  const field = useFieldValidation(node, validation, false);
  const label = fieldLabel(props.label, a11y.label, id);
  return (
    <div {...fieldRootAttributes(id, props, 'a2ui-slider', field)}>
      <FieldLabelElement label={label} htmlFor={inputId} />
      <div className="a2ui-slider-row">
        <input
          id={inputId}
          className="a2ui-slider-input"
          type="range"
          min={min}
          max={max}
          step={integral ? 1 : 'any'}
          value={value}
          {...fieldInputAttributes(label, a11y, field)}
          onChange={(event) => {
            field.touch();
            setValue(Number(event.target.value));
          }}
        />
        <output className="a2ui-slider-value" htmlFor={inputId}>
          {value}
        </output>
      </div>
      {field.messageElement}
      {a11y.descriptionElement}
    </div>
  );
}
