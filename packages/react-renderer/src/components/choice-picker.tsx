/**
 * ChoicePicker (§9): single choice (radio semantics) or multiple choice (checkbox semantics),
 * as a list or as chips, optionally filterable. The value is always a string array.
 */
import { isRecord } from '@a2ui-ts/core';
import { useId, useState } from 'react';
import type { A2uiComponentProps } from '../registry/a2ui-component.js';
import {
  classNames,
  describedBy,
  hasContent,
  humanize,
  RequiredMark,
  rootAttributes,
  text,
  useAccessibility,
  useFieldValidation,
  useTwoWayValue,
} from './component-helpers.js';

/** One resolved option. */
export interface ChoiceOption {
  readonly label?: unknown;
  readonly value?: unknown;
}

/** Resolved props of ChoicePicker. */
export interface ChoicePickerProps {
  readonly label?: unknown;
  /** @default 'mutuallyExclusive' */
  readonly variant?: 'mutuallyExclusive' | 'multipleSelection';
  readonly options?: unknown;
  /** Selected option values; a lone string counts as one selection. */
  readonly value?: unknown;
  /** @default 'checkbox' */
  readonly displayStyle?: 'checkbox' | 'chips';
  /** @default false */
  readonly filterable?: unknown;
}

function toSelection(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' && value !== '' ? [value] : [];
}

/**
 * A `<fieldset>` of native radios or checkboxes (chips are the same inputs styled as pills, so
 * arrow keys and Space behave natively). Single choice writes `[value]`; multiple choice toggles
 * membership and keeps the options' order. The filter matches labels case-insensitively and
 * never drops a selection.
 */
export function ChoicePicker({
  id,
  props,
  validation,
  node,
}: A2uiComponentProps<ChoicePickerProps>) {
  const a11y = useAccessibility(props);
  const groupName = useId();
  const [filter, setFilter] = useState('');
  const [rawValue, setValue] = useTwoWayValue(node, 'value', props.value);
  const selection = toSelection(rawValue);
  const field = useFieldValidation(node, validation, hasContent(selection));
  const multiple = props.variant === 'multipleSelection';
  const chips = props.displayStyle === 'chips';
  const options = (Array.isArray(props.options) ? props.options.filter(isRecord) : []).map(
    (option: ChoiceOption) => ({
      label: text(option.label),
      value: typeof option.value === 'string' ? option.value : text(option.value),
    }),
  );
  const query = filter.trim().toLowerCase();
  const visible =
    query === '' ? options : options.filter((option) => option.label.toLowerCase().includes(query));
  const label = text(props.label);

  const toggle = (value: string, checked: boolean) => {
    field.touch();
    if (!multiple) {
      setValue([value]);
      return;
    }
    const next = new Set(selection);
    if (checked) next.add(value);
    else next.delete(value);
    // Options order first, then selections that are not options (kept, never dropped).
    const ordered = options.map((option) => option.value).filter((item) => next.has(item));
    setValue([...ordered, ...[...next].filter((item) => !ordered.includes(item))]);
  };

  return (
    <fieldset
      {...rootAttributes(
        id,
        props,
        classNames(
          'a2ui-field',
          'a2ui-choice-picker',
          chips ? 'a2ui-choice-chips' : 'a2ui-choice-list',
          field.severity === 'error' && 'a2ui-field-invalid',
        ),
      )}
      aria-label={label ? a11y.label : (a11y.label ?? humanize(id))}
      aria-describedby={describedBy(
        field.message ? field.messageId : undefined,
        a11y.descriptionId,
      )}
    >
      {label ? (
        <legend className="a2ui-field-label">
          {label}
          <RequiredMark required={field.required} />
        </legend>
      ) : null}
      {props.filterable === true ? (
        <input
          className="a2ui-input a2ui-choice-filter"
          type="search"
          value={filter}
          aria-label={node.strings.filterOptions}
          placeholder={node.strings.filterOptions}
          onChange={(event) => setFilter(event.target.value)}
        />
      ) : null}
      <div className="a2ui-choice-options">
        {visible.map((option) => {
          const checked = selection.includes(option.value);
          return (
            <label
              key={option.value}
              className={classNames('a2ui-choice-option', checked && 'a2ui-choice-selected')}
            >
              <input
                className="a2ui-choice-input"
                type={multiple ? 'checkbox' : 'radio'}
                name={groupName}
                value={option.value}
                checked={checked}
                aria-invalid={field.severity === 'error' ? true : undefined}
                // One radio of the group must be chosen; `required` on checkboxes would demand all.
                required={field.required && !multiple ? true : undefined}
                onBlur={field.touch}
                onChange={(event) => toggle(option.value, event.target.checked)}
              />
              <span className="a2ui-choice-label">{option.label}</span>
            </label>
          );
        })}
        {visible.length === 0 && options.length > 0 ? (
          <span className="a2ui-choice-empty" role="status">
            {node.strings.noMatchingOptions}
          </span>
        ) : null}
      </div>
      {field.messageElement}
      {a11y.descriptionElement}
    </fieldset>
  );
}
