/**
 * A component calling a function its catalog does not define (issue 13): the surface renders,
 * the call is empty, a Button whose action calls one is inert with its reason, and each problem
 * reaches the agent once.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { flush, renderMessages, surface } from '../../test/test-client.js';

describe('unknown functions', () => {
  it('degrade like an unknown component: everything renders, the button is inert', async () => {
    const test = renderMessages(
      surface([
        { id: 'root', component: 'Column', children: ['share', 'note', 'ok'] },
        {
          id: 'share',
          component: 'Button',
          child: 'share-label',
          action: { functionCall: { call: 'shareSheet', args: {} } },
        },
        { id: 'share-label', component: 'Text', text: 'Share' },
        { id: 'note', component: 'Text', text: { call: 'translate', args: {} } },
        { id: 'ok', component: 'Button', child: 'ok-label', action: { event: { name: 'ok' } } },
        { id: 'ok-label', component: 'Text', text: 'OK' },
      ]),
    );
    const share = screen.getByRole('button', { name: 'Share' });
    expect(share).toHaveProperty('disabled', true);
    expect(share.getAttribute('aria-describedby')).toBeTruthy();
    const reason = document.getElementById(
      share.getAttribute('aria-describedby')!.split(' ').at(-1)!,
    );
    expect(reason?.textContent).toBe(
      'This action is not available (unknown function "shareSheet").',
    );
    expect(screen.getByRole('button', { name: 'OK' })).toHaveProperty('disabled', false);
    fireEvent.click(share);
    await flush();
    expect(test.sent.filter((message) => 'action' in message)).toEqual([]);
    const reports = test.errors.filter((error) => error.code === 'VALIDATION_FAILED');
    expect(reports.map((error) => error.path)).toEqual([
      '/updateComponents/components/1/action/functionCall/call',
      '/updateComponents/components/3/text/call',
    ]);
    // The Text calling `translate` reported its EXPRESSION_ERROR once, however often it rendered.
    expect(test.errors.filter((error) => error.code === 'EXPRESSION_ERROR')).toHaveLength(1);
  });
});
