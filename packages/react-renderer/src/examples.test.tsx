/**
 * Every official example stream renders with zero errors, and the behaviours users rely on work
 * on them (the Angular explorer's per-example expectations, digest §14.5).
 */
import { EXAMPLE_STREAMS, type ExampleStream } from '@a2ui-ts/core/testing';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createTestClient, flush } from '../test/test-client.js';
import { A2UIRenderer } from './index.js';

function example(file: string): ExampleStream {
  const stream = EXAMPLE_STREAMS.find((entry) => entry.file === file);
  if (!stream) throw new Error(`no example ${file}`);
  return stream;
}

/** Markup without generated ids, attributes sorted: what a user sees, independent of history. */
function normalize(element: Element): string {
  // Ids are generated; `checked`/`value` attributes reflect the first render, the properties the state.
  const SKIPPED = new Set([
    'id',
    'for',
    'aria-describedby',
    'aria-labelledby',
    'aria-controls',
    'name',
    'checked',
    'value',
  ]);
  const entries = [...element.attributes]
    .filter((attribute) => !SKIPPED.has(attribute.name))
    .map((attribute) => `${attribute.name}=${attribute.value}`);
  if (element instanceof HTMLInputElement)
    entries.push(`.checked=${element.checked}`, `.value=${element.value}`);
  const attributes = entries.sort().join(' ');
  const children = [...element.childNodes]
    .map((child) =>
      child.nodeType === 1 ? normalize(child as Element) : (child.textContent ?? ''),
    )
    .join('');
  return `<${element.tagName} ${attributes}>${children}</${element.tagName}>`;
}

function renderExample(file: string) {
  const test = createTestClient();
  test.client.process(example(file).messages);
  const view = render(<A2UIRenderer client={test.client} />);
  return { ...test, view };
}

describe('every example stream', () => {
  it.each(EXAMPLE_STREAMS.map((stream) => [stream.file, stream] as const))(
    '%s renders with zero errors, no placeholder and no fallback',
    async (_file, stream) => {
      const test = createTestClient();
      const result = test.client.process(stream.messages);
      expect(result.errors).toEqual([]);
      const { container } = render(<A2UIRenderer client={test.client} />);
      await flush();
      expect(test.errors).toEqual([]);
      expect(container.querySelector('[data-a2ui-id="root"]')).not.toBeNull();
      expect(container.querySelector('.a2ui-placeholder')).toBeNull();
      expect(container.querySelector('.a2ui-fallback')).toBeNull();
      expect(container.querySelector('.a2ui-diagnostic')).toBeNull();
    },
  );

  it('applies a stream message by message with the same final result', async () => {
    for (const stream of EXAMPLE_STREAMS) {
      const test = createTestClient();
      const view = render(<A2UIRenderer client={test.client} />);
      for (const message of stream.messages) test.process(message);
      const incremental = normalize(view.container);
      view.unmount();
      const whole = renderExample(stream.file);
      expect(incremental, stream.file).toBe(normalize(whole.view.container));
      whole.view.unmount();
      expect(test.errors).toEqual([]);
    }
  });
});

describe('09 login form', () => {
  it('typing an invalid email shows the check message and keeps the button disabled', async () => {
    const user = userEvent.setup();
    const test = renderExample('09_login-form.json');
    const email = screen.getByLabelText('Email');
    const signIn = screen.getByRole('button', { name: 'Sign in' });
    expect(signIn).toHaveProperty('disabled', true);
    // Nothing shown before the user touched the field (validationDisplay 'touched').
    expect(screen.queryByText('Email is required')).toBeNull();
    expect(email.getAttribute('aria-invalid')).toBeNull();

    await user.type(email, 'not-an-email');
    expect(test.client.processor.getSurface('gallery-login-form')?.dataModel.get('/email')).toBe(
      'not-an-email',
    );
    const message = screen.getByText('Please enter a valid email address');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')?.split(' ')).toContain(message.id);
    expect(signIn).toHaveProperty('disabled', true);
    // The disabled button says why.
    expect(signIn.getAttribute('aria-describedby')).toBeTruthy();
  });

  it('a valid form enables the button and the click sends the login action with the email', async () => {
    const user = userEvent.setup();
    const test = renderExample('09_login-form.json');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    expect(screen.queryByText('Please enter a valid email address')).toBeNull();
    expect(screen.getByLabelText('Password').getAttribute('type')).toBe('password');
    const signIn = screen.getByRole('button', { name: 'Sign in' });
    expect(signIn).toHaveProperty('disabled', false);
    await user.click(signIn);
    await flush();
    expect(test.sent).toHaveLength(1);
    const sent = test.sent[0] as {
      action: { name: string; sourceComponentId: string; context: unknown; timestamp: string };
    };
    expect(sent.action.name).toBe('login');
    expect(sent.action.sourceComponentId).toBe('login-btn');
    expect(sent.action.context).toEqual({ email: 'ada@example.com' });
    expect(Number.isNaN(Date.parse(sent.action.timestamp))).toBe(false);
  });

  it('clearing the email shows "Email is required" (the first failing check)', async () => {
    const user = userEvent.setup();
    renderExample('09_login-form.json');
    const email = screen.getByLabelText('Email');
    await user.type(email, 'x');
    await user.clear(email);
    expect(screen.getByText('Email is required')).toBeTruthy();
    expect(screen.queryByText('Please enter a valid email address')).toBeNull();
  });
});

describe('24 recipe card tabs', () => {
  it('switches tabs by click and arrow keys, following the WAI-ARIA pattern', async () => {
    const user = userEvent.setup();
    renderExample('24_recipe-card.json');
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Overview', 'Ingredients', 'Instructions']);
    expect(tabs[0]!.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('Mediterranean Quinoa Bowl')).toBeTruthy();
    expect(screen.getByText('(1,247 reviews)')).toBeTruthy();
    expect(screen.queryByText('1 cup quinoa')).toBeNull();

    await user.click(tabs[1]!);
    expect(screen.getByText('1 cup quinoa')).toBeTruthy();
    expect(screen.queryByText('Mediterranean Quinoa Bowl')).toBeNull();
    const panel = screen.getByRole('tabpanel');
    expect(panel.getAttribute('aria-labelledby')).toBe(tabs[1]!.id);

    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(screen.getAllByRole('tab')[2]);
    expect(
      within(screen.getByRole('tabpanel')).getByText(
        '1. Rinse quinoa and bring to a boil in water.',
      ),
    ).toBeTruthy();
    await user.keyboard('{Home}');
    expect(screen.getAllByRole('tab')[0]!.getAttribute('tabindex')).toBe('0');
    expect(screen.getAllByRole('tab')[1]!.getAttribute('tabindex')).toBe('-1');
    expect(screen.getByText('Mediterranean Quinoa Bowl')).toBeTruthy();
  });
});

describe('36 modal', () => {
  it('opens on the trigger, closes on Esc and gives focus back', async () => {
    const user = userEvent.setup();
    renderExample('36_modal.json');
    expect(screen.queryByRole('dialog')).toBeNull();
    const open = screen.getByRole('button', { name: 'Open Modal' });
    await user.click(open);
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('This is the content inside the modal.')).toBeTruthy();
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await flush();
    expect(document.activeElement).toBe(open);
  });
});

describe('34 child-list template', () => {
  it('renders one row per item and follows the array', () => {
    const test = renderExample('34_child-list-template.json');
    expect(screen.getByText('Apple')).toBeTruthy();
    expect(screen.getByText('Cherry')).toBeTruthy();
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    test.process({
      version: 'v0.9',
      updateDataModel: {
        surfaceId: 'gallery-child-list-template',
        path: '/items/3',
        value: { name: 'Date', quantity: 7 },
      },
    });
    expect(screen.getAllByRole('listitem')).toHaveLength(4);
    expect(screen.getByText('Date')).toBeTruthy();
    expect(screen.getByText('7')).toBeTruthy();
    test.process({
      version: 'v0.9',
      updateDataModel: {
        surfaceId: 'gallery-child-list-template',
        path: '/items',
        value: [{ name: 'Fig', quantity: 1 }],
      },
    });
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(screen.queryByText('Apple')).toBeNull();
  });
});

describe('31 incremental dashboard', () => {
  it('replaces loading texts and placeholders as messages arrive', () => {
    const stream = example('31_incremental-dashboard.json');
    const test = createTestClient();
    const { container } = render(<A2UIRenderer client={test.client} />);
    test.process(stream.messages[0]);
    // Surface exists, no root yet: a loading status.
    expect(screen.getByRole('status')).toBeTruthy();
    test.process(stream.messages[1]);
    expect(screen.getByText('Loading analytics...')).toBeTruthy();
    expect(screen.getByText('Loading logs...')).toBeTruthy();
    test.process(stream.messages[2]);
    expect(screen.queryByText('Loading analytics...')).toBeNull();
    expect(screen.getByText('Analytics are ready.')).toBeTruthy();
    test.process(stream.messages[3]);
    expect(screen.queryByText('Loading logs...')).toBeNull();
    // The list exists, its data not yet: zero items.
    expect(container.querySelector('[data-a2ui-id="logs-list"]')?.children).toHaveLength(0);
    test.process(stream.messages[4]);
    expect(screen.getByText('System boot complete.')).toBeTruthy();
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    // weight → flex on both panels.
    const left = container.querySelector<HTMLElement>('[data-a2ui-id="left-panel"]')!;
    expect(left.style.flex).toBe('1 1 0%');
    expect(test.errors).toEqual([]);
  });

  it('shows a placeholder for a child that has not arrived, then the child', () => {
    const test = createTestClient();
    const { container } = render(<A2UIRenderer client={test.client} />);
    test.process([
      {
        version: 'v0.9',
        createSurface: {
          surfaceId: 'p',
          catalogId: 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json',
        },
      },
      {
        version: 'v0.9',
        updateComponents: {
          surfaceId: 'p',
          components: [{ id: 'root', component: 'Column', children: ['later'] }],
        },
      },
    ]);
    const placeholder = container.querySelector('[data-a2ui-pending="later"]');
    expect(placeholder?.getAttribute('aria-busy')).toBe('true');
    test.process({
      version: 'v0.9',
      updateComponents: {
        surfaceId: 'p',
        components: [{ id: 'later', component: 'Text', text: 'Here' }],
      },
    });
    expect(container.querySelector('[data-a2ui-pending]')).toBeNull();
    expect(screen.getByText('Here')).toBeTruthy();
  });
});

describe('other examples', () => {
  it('07 task card: bound icon alias, date in local time, label-less checkbox still labelled', async () => {
    const user = userEvent.setup();
    const test = renderExample('07_task-card.json');
    expect(screen.getByRole('img', { name: 'priority high' })).toBeTruthy();
    const due = screen.getByLabelText('Due') as HTMLInputElement;
    expect(due.type).toBe('datetime-local');
    expect(due.value).toBe('2025-12-15T17:00');
    const checkbox = screen.getByRole('checkbox', { name: 'status checkbox' });
    await user.click(checkbox);
    expect(test.client.processor.getSurface('gallery-task-card')?.dataModel.get('/completed')).toBe(
      true,
    );
  });

  it('19 software purchase: chips write a string array and the total is formatted', async () => {
    const user = userEvent.setup();
    const test = renderExample('19_software-purchase.json');
    expect(screen.getByText('$1,188.00/year')).toBeTruthy();
    const annual = screen.getByRole('radio', { name: 'Annual' }) as HTMLInputElement;
    expect(annual.checked).toBe(true);
    await user.click(screen.getByRole('radio', { name: 'Monthly' }));
    expect(
      test.client.processor
        .getSurface('gallery-software-purchase')
        ?.dataModel.get('/billingPeriod'),
    ).toEqual(['monthly']);
    expect(annual.checked).toBe(false);
  });

  it('32 advanced validator: "Invalid email format" after typing invalid-email', async () => {
    const user = userEvent.setup();
    renderExample('32_advanced-form-validator.json');
    expect(screen.getByText('Hello! Today is Monday, December 15.')).toBeTruthy();
    await user.type(screen.getByLabelText('Email Address'), 'invalid-email');
    expect(screen.getByText('Invalid email format')).toBeTruthy();
    const submit = screen.getByRole('button', { name: 'Submit Registration' });
    expect(submit).toHaveProperty('disabled', true);
    await user.type(screen.getByLabelText('Zip Code'), '12345');
    await user.click(screen.getByRole('checkbox', { name: 'I agree to the terms and conditions' }));
    expect(submit).toHaveProperty('disabled', false);
  });

  it('29 movie card: the trailer button opens a dialog with the video', async () => {
    const user = userEvent.setup();
    const test = renderExample('29_movie-card.json');
    // The example renders the trailer button twice: in the content column and as the trigger.
    const [, trigger] = screen.getAllByRole('button', { name: 'Watch Trailer' });
    await user.click(trigger!);
    const dialog = screen.getByRole('dialog');
    const video = dialog.querySelector('video');
    expect(video?.getAttribute('src')).toBe('https://www.w3schools.com/html/mov_bbb.mp4');
    await flush();
    // The Button's own action still fired.
    expect(
      test.sent.map((message) => (message as { action: { name: string } }).action.name),
    ).toEqual(['open_trailer']);
  });

  it('30 live invitation builder: typing updates the live preview', async () => {
    const test = renderExample('30_live-invitation-builder.json');
    const surfaceModel = test.client.processor.getSurface('gallery-invitation-builder')!;
    act(() => {
      fireEvent.change(screen.getByLabelText('Event Name'), { target: { value: 'Garden Party' } });
    });
    expect(surfaceModel.dataModel.get('/event/name')).toBe('Garden Party');
    expect(screen.getByRole('heading', { level: 2, name: 'Garden Party' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Invitation Builder' })).toBeTruthy();
  });

  it('minimal 6: capitalize follows the text field', async () => {
    const user = userEvent.setup();
    const test = renderExample('6_capitalized_text.json');
    const field = screen.getByRole('textbox');
    await user.type(field, 'hello');
    expect(test.view.container.textContent).toContain('Capitalized output:Hello');
  });
});
