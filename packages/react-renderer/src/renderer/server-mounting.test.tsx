// @vitest-environment node
/**
 * Server rendering blocks no page, so it is not paced (`mountSliceMs`): the HTML holds every
 * child of a list longer than a commit mounts in the browser.
 */
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createTestClient, surface } from '../../test/test-client.js';
import { A2UIRenderer } from './a2ui-renderer.js';
import { MIN_CHILDREN_PER_COMMIT } from './mount-scheduler.js';

describe('server rendering', () => {
  it('renders every child of a long list, with mountSliceMs 0', () => {
    const count = MIN_CHILDREN_PER_COMMIT * 3;
    const test = createTestClient();
    test.client.process(
      surface(
        [
          { id: 'root', component: 'List', children: { componentId: 't', path: '/items' } },
          { id: 't', component: 'Text', text: { path: 'name' } },
        ],
        { items: Array.from({ length: count }, (_, i) => ({ name: `item ${i}` })) },
      ),
    );
    const html = renderToString(<A2UIRenderer client={test.client} mountSliceMs={0} />);
    expect(html.match(/data-a2ui-id="t"/g)).toHaveLength(count);
    expect(html).toContain(`item ${count - 1}`);
    expect(html).not.toContain('aria-busy');
  });
});
