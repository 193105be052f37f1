/**
 * Slider (§9): a labelled range input two-way bound to a number (§7.6).
 */
import { toNumber } from '@a2ui-ts/core';
import { type CSSProperties, useId } from 'react';
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
  /** v1.0: the number of discrete divisions of the range (an integer ≥ 1); the value snaps to them. */
  readonly steps?: unknown;
}

const finite = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;

/** The `step` of the range: `(max − min) / steps` when `steps` (v1.0) is a positive integer. */
function stepOf(min: number, max: number, value: number, steps: unknown): number | 'any' {
  if (typeof steps === 'number' && Number.isInteger(steps) && steps >= 1 && max > min) {
    return (max - min) / steps;
  }
  return Number.isInteger(min) && Number.isInteger(max) && Number.isInteger(value) ? 1 : 'any';
}

/**
 * `<input type="range">` with the current value shown beside it. With `steps` (v1.0) the range
 * has that many divisions; otherwise the step is 1 when min, max and value are integers, else
 * any (decimals are allowed, §9). Writes a number.
 */
export function Slider({ id, props, validation, node }: A2uiComponentProps<SliderProps>) {
  const a11y = useAccessibility(props);
  const inputId = useId();
  const min = finite(props.min, 0);
  const max = Math.max(min, finite(props.max, 100));
  const [rawValue, setValue] = useTwoWayValue(node, 'value', props.value);
  const value = Math.min(max, Math.max(min, toNumber(rawValue)));
  const step = stepOf(min, max, value, props.steps);
  const field = useFieldValidation(node, validation, false);
  const label = fieldLabel(props.label, a11y.label, id);
  // The filled share of the track, drawn by styles.css (the native track ignores the theme).
  const fill = max > min ? ((value - min) / (max - min)) * 100 : 0;
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
          step={step}
          value={value}
          style={{ '--a2ui-slider-fill': `${fill}%` } as CSSProperties}
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
