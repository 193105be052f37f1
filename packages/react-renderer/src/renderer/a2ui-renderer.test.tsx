import { EXAMPLE_STREAMS } from '@a2ui-ts/core/testing';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { flush, renderMessages, surface } from '../../test/test-client.js';

describe('A2UIRenderer smoke', () => {
  it('renders a text', async () => {
    const test = renderMessages(surface([{ id: 'root', component: 'Text', text: 'Hello' }]));
    expect(screen.getByText('Hello')).toBeTruthy();
    await flush();
    expect(test.errors).toEqual([]);
  });

  it.each(EXAMPLE_STREAMS.map((stream) => [stream.file, stream] as const))('renders %s', async (_file, stream) => {
    const test = renderMessages(stream.messages);
    await flush();
    expect(test.errors).toEqual([]);
    expect(test.view.container.querySelector('[data-a2ui-id="root"]')).not.toBeNull();
  });
});
