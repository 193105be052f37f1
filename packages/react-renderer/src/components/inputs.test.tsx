/**
 * Button, TextField, CheckBox, ChoicePicker, Slider and DateTimeInput: every property of §9,
 * two-way binding (§7.6) and checks (§8.4).
 */
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { flush, renderMessages, setData, surface } from '../../test/test-client.js';

const required = (path: string, message: string) => ({
  condition: { call: 'required', args: { value: { path } } },
  message,
});

function model(test: ReturnType<typeof renderMessages>, path: string): unknown {
  return test.client.processor.getSurface('s')!.dataModel.get(path);
}

describe('Button', () => {
  it.each(['default', 'primary', 'borderless'])('variant %s', (variant) => {
    renderMessages(
      surface([
        { id: 'root', component: 'Button', child: 't', variant, action: { event: { name: 'go' } } },
        { id: 't', component: 'Text', text: 'Go' },
      ]),
    );
    expect(screen.getByRole('button', { name: 'Go' }).className).toContain(
      `a2ui-button-${variant}`,
    );
  });

  it('a failing check disables it and describes why; fixing the data enables it', async () => {
    const test = renderMessages(
      surface(
        [
          {
            id: 'root',
            component: 'Button',
            child: 't',
            checks: [required('/name', 'Name needed')],
            action: { event: { name: 'go', context: { name: { path: '/name' } } } },
          },
          { id: 't', component: 'Text', text: 'Go' },
        ],
        { name: '' },
      ),
    );
    const button = screen.getByRole('button', { name: 'Go' });
    expect(button).toHaveProperty('disabled', true);
    const reason = document.getElementById(button.getAttribute('aria-describedby')!)!;
    expect(reason.textContent).toBe('Name needed');
    // Visible, not only for screen readers.
    expect(reason.hidden).toBe(false);
    expect(reason.className).toBe('a2ui-button-reason');
    expect(reason.closest('.a2ui-sr-only, [hidden]')).toBeNull();
    test.process(setData('/name', 'Ada'));
    expect(button).toHaveProperty('disabled', false);
    expect(button.getAttribute('aria-describedby')).toBeNull();
    expect(screen.queryByText('Name needed')).toBeNull();
    fireEvent.click(button);
    await flush();
    expect((test.sent[0] as { action: { context: unknown } }).action.context).toEqual({
      name: 'Ada',
    });
  });

  it('an icon-only button is named by its accessibility label', () => {
    renderMessages(
      surface([
        {
          id: 'root',
          component: 'Button',
          child: 'i',
          accessibility: { label: 'Delete item' },
          action: { event: { name: 'delete' } },
        },
        { id: 'i', component: 'Icon', name: 'delete' },
      ]),
    );
    expect(screen.getByRole('button', { name: 'Delete item' })).toBeTruthy();
  });
});

describe('required inputs', () => {
  it('a required check marks the label and sets required; other checks do not', () => {
    const { view, errors } = renderMessages(
      surface(
        [
          { id: 'root', component: 'Column', children: ['name', 'when', 'note', 'agree', 'pick'] },
          {
            id: 'name',
            component: 'TextField',
            label: 'Name',
            value: { path: '/name' },
            checks: [required('/name', 'Name needed')],
          },
          {
            id: 'when',
            component: 'DateTimeInput',
            label: 'Date',
            value: { path: '/date' },
            enableDate: true,
            // Inside an `and`.
            checks: [
              {
                condition: {
                  call: 'and',
                  args: {
                    values: [
                      { call: 'required', args: { value: { path: '/date' } } },
                      { call: 'length', args: { value: { path: '/date' }, min: 10 } },
                    ],
                  },
                },
                message: 'Pick a date',
              },
            ],
          },
          {
            id: 'note',
            component: 'TextField',
            label: 'Note',
            value: { path: '/note' },
            checks: [
              {
                condition: { call: 'length', args: { value: { path: '/note' }, max: 5 } },
                message: 'Short',
              },
            ],
          },
          {
            id: 'agree',
            component: 'CheckBox',
            label: 'Agree',
            value: { path: '/agree' },
            checks: [{ condition: { path: '/agree' }, message: 'Agree' }],
          },
          {
            id: 'pick',
            component: 'ChoicePicker',
            label: 'Time',
            options: [{ label: '19:00', value: '19:00' }],
            value: { path: '/time' },
            variant: 'mutuallyExclusive',
            checks: [required('/time', 'Pick a time')],
          },
        ],
        { name: '', date: '', note: '', agree: false, time: [] },
      ),
    );
    expect(errors).toEqual([]);
    const marked = [...view.container.querySelectorAll('.a2ui-required-mark')].map((mark) =>
      mark.parentElement?.textContent?.trim(),
    );
    // A bare boolean condition does not demand a value of its own: the CheckBox is not marked.
    expect(marked).toEqual(['Name *', 'Date *', 'Time *']);
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveProperty('required', true);
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveProperty('required', false);
    expect(screen.getByLabelText('Date')).toHaveProperty('required', true);
    expect(screen.getByRole('checkbox', { name: 'Agree' })).toHaveProperty('required', false);
    expect(screen.getByRole('radio', { name: '19:00' })).toHaveProperty('required', true);
    // The mark is decoration: the accessible name stays the label.
    for (const mark of view.container.querySelectorAll('.a2ui-required-mark'))
      expect(mark.getAttribute('aria-hidden')).toBe('true');
  });
});

describe('TextField', () => {
  it('writes every keystroke to the bound path, synchronously', async () => {
    const user = userEvent.setup();
    const test = renderMessages(
      surface(
        [{ id: 'root', component: 'TextField', label: 'Name', value: { path: '/user/name' } }],
        { user: { name: 'A' } },
      ),
    );
    const input = screen.getByLabelText('Name') as HTMLInputElement;
    expect(input.value).toBe('A');
    await user.type(input, 'da');
    expect(model(test, '/user/name')).toBe('Ada');
    test.process(setData('/user/name', 'Grace'));
    expect(input.value).toBe('Grace');
    expect(test.sent).toEqual([]);
  });

  it.each([
    ['shortText', 'INPUT', 'text'],
    ['number', 'INPUT', 'text'],
    ['obscured', 'INPUT', 'password'],
    ['longText', 'TEXTAREA', null],
  ])('variant %s', (variant, tag, type) => {
    renderMessages(
      surface([{ id: 'root', component: 'TextField', label: 'F', variant, value: { path: '/v' } }]),
    );
    const input = screen.getByLabelText('F');
    expect(input.tagName).toBe(tag);
    expect(input.getAttribute('type')).toBe(type);
    if (variant === 'number') expect(input.getAttribute('inputmode')).toBe('decimal');
  });

  it('shows the first failing check once touched, linked with aria-invalid/aria-describedby', async () => {
    const user = userEvent.setup();
    renderMessages(
      surface(
        [
          {
            id: 'root',
            component: 'TextField',
            label: 'Code',
            value: { path: '/code' },
            checks: [
              required('/code', 'Required'),
              {
                condition: { call: 'length', args: { value: { path: '/code' }, min: 3 } },
                message: 'Too short',
              },
            ],
          },
        ],
        { code: '' },
      ),
    );
    const input = screen.getByLabelText('Code');
    expect(input.getAttribute('aria-invalid')).toBeNull();
    await user.type(input, 'a');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const message = screen.getByText('Too short');
    expect(input.getAttribute('aria-describedby')).toContain(message.id);
    expect(screen.queryByText('Required')).toBeNull();
    await user.type(input, 'bc');
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText('Too short')).toBeNull();
  });

  it('validationDisplay "always" shows messages from the first render; a prefilled invalid value shows at once', () => {
    renderMessages(
      surface(
        [
          {
            id: 'root',
            component: 'TextField',
            label: 'X',
            value: { path: '/x' },
            checks: [required('/x', 'Required')],
          },
        ],
        { x: '' },
      ),
      {
        validationDisplay: 'always',
      },
    );
    expect(screen.getByText('Required')).toBeTruthy();
  });

  it('validationRegexp runs through the linear-time regex function', async () => {
    const user = userEvent.setup();
    renderMessages(
      surface(
        [
          {
            id: 'root',
            component: 'TextField',
            label: 'Zip',
            value: { path: '/zip' },
            validationRegexp: '^[0-9]{5}$',
          },
        ],
        { zip: '' },
      ),
    );
    const input = screen.getByLabelText('Zip');
    await user.type(input, '12a');
    expect(screen.getByText('Invalid format')).toBeTruthy();
    await user.clear(input);
    await user.type(input, '12345');
    expect(screen.queryByText('Invalid format')).toBeNull();
  });

  it('a literal value is editable locally and writes nothing', async () => {
    const user = userEvent.setup();
    const test = renderMessages(
      surface([{ id: 'root', component: 'TextField', label: 'L', value: 'start' }]),
    );
    const input = screen.getByLabelText('L') as HTMLInputElement;
    await user.type(input, '!');
    expect(input.value).toBe('start!');
    expect(test.client.processor.getSurface('s')!.dataModel.getSnapshot()).toEqual({});
  });

  it('accessibility label and description', () => {
    renderMessages(
      surface([
        {
          id: 'root',
          component: 'TextField',
          label: 'E-mail',
          value: { path: '/e' },
          accessibility: { label: 'Work e-mail', description: 'We never share it' },
        },
      ]),
    );
    const input = screen.getByRole('textbox', { name: 'Work e-mail' });
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe(
      'We never share it',
    );
  });
});

describe('CheckBox', () => {
  it('reflects and writes booleans; coerces bound strings', async () => {
    const user = userEvent.setup();
    const test = renderMessages(
      surface(
        [{ id: 'root', component: 'CheckBox', label: 'Subscribe', value: { path: '/sub' } }],
        { sub: 'true' },
      ),
    );
    const box = screen.getByRole('checkbox', { name: 'Subscribe' }) as HTMLInputElement;
    expect(box.checked).toBe(true);
    await user.click(box);
    expect(model(test, '/sub')).toBe(false);
    await user.click(box);
    expect(model(test, '/sub')).toBe(true);
  });

  it('shows its failing check after interaction', async () => {
    const user = userEvent.setup();
    renderMessages(
      surface(
        [
          {
            id: 'root',
            component: 'CheckBox',
            label: 'Accept',
            value: { path: '/ok' },
            checks: [{ condition: { path: '/ok' }, message: 'You must accept' }],
          },
        ],
        { ok: true },
      ),
    );
    const box = screen.getByRole('checkbox', { name: 'Accept' });
    await user.click(box);
    expect(screen.getByText('You must accept')).toBeTruthy();
    expect(box.getAttribute('aria-invalid')).toBe('true');
  });
});

describe('ChoicePicker', () => {
  const options = [
    { label: 'Red', value: 'red' },
    { label: { path: '/greenLabel' }, value: 'green' },
    { label: 'Blue', value: 'blue' },
  ];

  it('mutuallyExclusive (default) as a radio group writes a one-element array', async () => {
    const user = userEvent.setup();
    const test = renderMessages(
      surface(
        [
          {
            id: 'root',
            component: 'ChoicePicker',
            label: 'Colour',
            options,
            value: { path: '/c' },
          },
        ],
        { c: ['red'], greenLabel: 'Green' },
      ),
    );
    const group = screen.getByRole('group', { name: 'Colour' });
    expect(group.className).toContain('a2ui-choice-list');
    expect((screen.getByRole('radio', { name: 'Red' }) as HTMLInputElement).checked).toBe(true);
    await user.click(screen.getByRole('radio', { name: 'Green' }));
    expect(model(test, '/c')).toEqual(['green']);
    expect((screen.getByRole('radio', { name: 'Red' }) as HTMLInputElement).checked).toBe(false);
  });

  it('multipleSelection toggles membership in options order', async () => {
    const user = userEvent.setup();
    const test = renderMessages(
      surface(
        [
          {
            id: 'root',
            component: 'ChoicePicker',
            label: 'Colours',
            variant: 'multipleSelection',
            options,
            value: { path: '/c' },
          },
        ],
        {
          c: ['blue'],
          greenLabel: 'Green',
        },
      ),
    );
    await user.click(screen.getByRole('checkbox', { name: 'Red' }));
    expect(model(test, '/c')).toEqual(['red', 'blue']);
    await user.click(screen.getByRole('checkbox', { name: 'Blue' }));
    expect(model(test, '/c')).toEqual(['red']);
  });

  it('chips are the same native inputs styled as pills', () => {
    renderMessages(
      surface(
        [
          {
            id: 'root',
            component: 'ChoicePicker',
            label: 'Size',
            displayStyle: 'chips',
            options: [
              { label: 'S', value: 's' },
              { label: 'M', value: 'm' },
            ],
            value: { path: '/size' },
          },
        ],
        {
          size: ['m'],
        },
      ),
    );
    expect(screen.getByRole('group', { name: 'Size' }).className).toContain('a2ui-choice-chips');
    expect(screen.getByRole('radio', { name: 'M' }).closest('label')?.className).toContain(
      'a2ui-choice-selected',
    );
  });

  it('filterable matches labels case-insensitively and keeps hidden selections', async () => {
    const user = userEvent.setup();
    const test = renderMessages(
      surface(
        [
          {
            id: 'root',
            component: 'ChoicePicker',
            label: 'Colours',
            variant: 'multipleSelection',
            filterable: true,
            options,
            value: { path: '/c' },
          },
        ],
        {
          c: ['red'],
          greenLabel: 'Green',
        },
      ),
    );
    const filter = screen.getByRole('searchbox', { name: 'Filter options' });
    await user.type(filter, 'GR');
    expect(screen.queryByRole('checkbox', { name: 'Red' })).toBeNull();
    await user.click(screen.getByRole('checkbox', { name: 'Green' }));
    expect(model(test, '/c')).toEqual(['red', 'green']);
    await user.clear(filter);
    await user.type(filter, 'zzz');
    expect(screen.getByText('No matching options')).toBeTruthy();
  });

  it('treats a bound lone string as one selection', () => {
    renderMessages(
      surface([{ id: 'root', component: 'ChoicePicker', options, value: { path: '/c' } }], {
        c: 'blue',
        greenLabel: 'G',
      }),
    );
    expect((screen.getByRole('radio', { name: 'Blue' }) as HTMLInputElement).checked).toBe(true);
    // No label from the agent: the group is still named (humanized id).
    expect(screen.getByRole('group', { name: 'root' })).toBeTruthy();
  });
});

describe('Slider', () => {
  it('min, max, value and label; writes numbers', () => {
    const test = renderMessages(
      surface(
        [
          {
            id: 'root',
            component: 'Slider',
            label: 'Volume',
            min: 10,
            max: 20,
            value: { path: '/v' },
          },
        ],
        { v: 15 },
      ),
    );
    const slider = screen.getByRole('slider', { name: 'Volume' }) as HTMLInputElement;
    expect(slider.min).toBe('10');
    expect(slider.max).toBe('20');
    expect(slider.value).toBe('15');
    expect(slider.step).toBe('1');
    fireEvent.change(slider, { target: { value: '18' } });
    expect(model(test, '/v')).toBe(18);
    expect(screen.getByText('18')).toBeTruthy();
  });

  it('allows decimals and defaults min to 0', () => {
    renderMessages(
      surface(
        [
          {
            id: 'root',
            component: 'Slider',
            max: 1,
            value: { path: '/v' },
            accessibility: { label: 'Opacity' },
          },
        ],
        { v: 0.25 },
      ),
    );
    const slider = screen.getByRole('slider', { name: 'Opacity' }) as HTMLInputElement;
    expect(slider.min).toBe('0');
    expect(slider.step).toBe('any');
    expect(slider.value).toBe('0.25');
  });
});

describe('DateTimeInput', () => {
  it.each([
    [true, false, 'date', '2025-07-15'],
    [false, true, 'time', '19:00'],
    [true, true, 'datetime-local', '2025-07-15T19:00'],
    [false, false, 'datetime-local', '2025-07-15T19:00'],
  ])('enableDate=%s enableTime=%s → %s', (enableDate, enableTime, type, shown) => {
    renderMessages(
      surface(
        [
          {
            id: 'root',
            component: 'DateTimeInput',
            label: 'When',
            enableDate,
            enableTime,
            value: { path: '/when' },
          },
        ],
        { when: '2025-07-15T19:00:00Z' },
      ),
    );
    const input = screen.getByLabelText('When') as HTMLInputElement;
    expect(input.type).toBe(type);
    expect(input.value).toBe(shown);
  });

  it('writes ISO 8601 back, in UTC when the model was zoned; min and max', () => {
    const test = renderMessages(
      surface(
        [
          {
            id: 'root',
            component: 'DateTimeInput',
            label: 'When',
            enableDate: true,
            enableTime: true,
            value: { path: '/when' },
            min: '2025-01-01T00:00:00Z',
            max: { path: '/max' },
          },
        ],
        { when: '2025-07-15T19:00:00Z', max: '2025-12-31T23:59:00' },
      ),
    );
    const input = screen.getByLabelText('When') as HTMLInputElement;
    expect(input.min).toBe('2025-01-01T00:00');
    expect(input.max).toBe('2025-12-31T23:59');
    fireEvent.change(input, { target: { value: '2025-08-01T09:30' } });
    expect(model(test, '/when')).toBe('2025-08-01T09:30:00Z');
  });

  it('date-only writes YYYY-MM-DD; an unset value is empty', () => {
    const test = renderMessages(
      surface(
        [
          {
            id: 'root',
            component: 'DateTimeInput',
            label: 'Day',
            enableDate: true,
            value: { path: '/day' },
          },
        ],
        { day: '' },
      ),
    );
    const input = screen.getByLabelText('Day') as HTMLInputElement;
    expect(input.value).toBe('');
    fireEvent.change(input, { target: { value: '2026-02-03' } });
    expect(model(test, '/day')).toBe('2026-02-03');
  });
});
