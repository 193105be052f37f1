/**
 * Tabs (WAI-ARIA tabs pattern) and Modal (dialog with focus trap, Esc, backdrop, focus restore).
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { flush, renderMessages, setData, surface } from '../../test/test-client.js';

function renderTabs() {
  return renderMessages(
    surface(
      [
        {
          id: 'root',
          component: 'Tabs',
          accessibility: { label: 'Sections' },
          tabs: [
            { title: { path: '/first' }, child: 'one' },
            { title: 'Two', child: 'two' },
            { title: 'Three', child: 'three' },
          ],
        },
        { id: 'one', component: 'Text', text: 'Panel one' },
        { id: 'two', component: 'TextField', label: 'Field two', value: { path: '/two' } },
        { id: 'three', component: 'Text', text: 'Panel three' },
      ],
      { first: 'One' },
    ),
  );
}

describe('Tabs', () => {
  it('has a labelled tablist, bound titles, one tab stop and only the selected panel', () => {
    const test = renderTabs();
    const tablist = screen.getByRole('tablist', { name: 'Sections' });
    const tabs = within(tablist).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['One', 'Two', 'Three']);
    expect(tabs.map((tab) => tab.getAttribute('tabindex'))).toEqual(['0', '-1', '-1']);
    expect(tabs.map((tab) => tab.getAttribute('aria-selected'))).toEqual([
      'true',
      'false',
      'false',
    ]);
    const panel = screen.getByRole('tabpanel', { name: 'One' });
    expect(tabs[0]!.getAttribute('aria-controls')).toBe(panel.id);
    expect(panel.textContent).toBe('Panel one');
    expect(screen.queryByText('Panel three')).toBeNull();
    test.process(setData('/first', 'Uno'));
    expect(screen.getByRole('tab', { name: 'Uno' })).toBe(tabs[0]);
  });

  it('arrow keys move selection and focus, wrapping; Home and End jump', async () => {
    const user = userEvent.setup();
    renderTabs();
    const tabs = screen.getAllByRole('tab');
    await user.click(tabs[0]!);
    await user.keyboard('{ArrowLeft}');
    expect(document.activeElement).toBe(tabs[2]);
    expect(screen.getByRole('tabpanel').textContent).toBe('Panel three');
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(tabs[0]);
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(tabs[2]);
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(tabs[0]);
    await user.keyboard('{ArrowRight}');
    expect(tabs[1]!.getAttribute('aria-selected')).toBe('true');
    expect(tabs[1]!.getAttribute('tabindex')).toBe('0');
    // Tab leaves the tablist for the panel content.
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('tabpanel'));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Field two'));
  });

  it('keeps the selection on an existing tab when the agent removes tabs', () => {
    const test = renderTabs();
    fireEvent.click(screen.getByRole('tab', { name: 'Three' }));
    test.process({
      version: 'v0.9',
      updateComponents: {
        surfaceId: 's',
        components: [{ id: 'root', component: 'Tabs', tabs: [{ title: 'Only', child: 'one' }] }],
      },
    });
    expect(screen.getByRole('tab', { name: 'Only' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').textContent).toBe('Panel one');
  });
});

function renderModal(trigger: Record<string, unknown>) {
  return renderMessages(
    surface(
      [
        { id: 'root', component: 'Column', children: ['before', 'modal'] },
        {
          id: 'before',
          component: 'Button',
          child: 'before-text',
          action: { event: { name: 'noop' } },
        },
        { id: 'before-text', component: 'Text', text: 'Before' },
        {
          id: 'modal',
          component: 'Modal',
          trigger: 'trigger',
          content: 'content',
          accessibility: { label: 'Details' },
        },
        { id: 'trigger', ...trigger },
        { id: 'trigger-text', component: 'Text', text: 'Open' },
        { id: 'content', component: 'Column', children: ['name', 'agree'] },
        { id: 'name', component: 'TextField', label: 'Name', value: { path: '/name' } },
        { id: 'agree', component: 'CheckBox', label: 'Agree', value: { path: '/agree' } },
      ],
      { name: '', agree: false },
    ),
  );
}

describe('Modal', () => {
  it('a Button trigger opens a labelled modal dialog, focusing its first field', async () => {
    const user = userEvent.setup();
    const test = renderModal({
      component: 'Button',
      child: 'trigger-text',
      action: { event: { name: 'opened' } },
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog', { name: 'Details' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Name'));
    // Portalled to body, still themed as a surface.
    expect(dialog.closest('.a2ui-surface.a2ui-modal-layer')?.parentElement).toBe(document.body);
    // Inputs inside still bind.
    await user.type(within(dialog).getByLabelText('Name'), 'Ada');
    expect(test.client.processor.getSurface('s')?.dataModel.get('/name')).toBe('Ada');
    await flush();
    expect(test.sent).toHaveLength(1);
  });

  it('traps Tab and Shift+Tab inside the dialog', async () => {
    const user = userEvent.setup();
    renderModal({
      component: 'Button',
      child: 'trigger-text',
      action: { event: { name: 'opened' } },
    });
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = screen.getByRole('dialog');
    const name = within(dialog).getByLabelText('Name');
    const agree = within(dialog).getByLabelText('Agree');
    const close = within(dialog).getByRole('button', { name: 'Close' });
    expect(document.activeElement).toBe(name);
    await user.tab();
    expect(document.activeElement).toBe(agree);
    await user.tab();
    expect(document.activeElement).toBe(close);
    await user.tab();
    expect(document.activeElement).toBe(name);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(close);
  });

  it('closes on Esc, on the close button and on the backdrop, restoring focus to the trigger', async () => {
    const user = userEvent.setup();
    renderModal({
      component: 'Button',
      child: 'trigger-text',
      action: { event: { name: 'opened' } },
    });
    const open = screen.getByRole('button', { name: 'Open' });

    await user.click(open);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    await flush();
    expect(document.activeElement).toBe(open);

    await user.click(open);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await flush();
    expect(document.activeElement).toBe(open);

    await user.click(open);
    // A click inside the dialog does not close it; one on the backdrop does.
    await user.click(screen.getByRole('dialog'));
    expect(screen.getByRole('dialog')).toBeTruthy();
    await user.click(document.querySelector('.a2ui-modal-backdrop')!);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('wraps a non-button trigger in a button so keyboards can open it', async () => {
    const user = userEvent.setup();
    renderModal({ component: 'Text', text: 'Read more' });
    const trigger = screen.getByRole('button', { name: 'Read more' });
    expect(trigger.getAttribute('aria-haspopup')).toBe('dialog');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    trigger.focus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    act(() => {
      fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('names the dialog after its trigger when the agent gives no label', async () => {
    const user = userEvent.setup();
    renderMessages(
      surface([
        { id: 'root', component: 'Modal', trigger: 't', content: 'c' },
        { id: 't', component: 'Button', child: 'tt', action: { event: { name: 'x' } } },
        { id: 'tt', component: 'Text', text: 'Show terms' },
        { id: 'c', component: 'Text', text: 'Terms' },
      ]),
    );
    await user.click(screen.getByRole('button', { name: 'Show terms' }));
    expect(screen.getByRole('dialog', { name: 'Show terms' })).toBeTruthy();
    // With nothing focusable inside but the close button, it gets the focus.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }));
  });
});
