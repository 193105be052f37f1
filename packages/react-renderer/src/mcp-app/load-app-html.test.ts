/**
 * Where an McpApp's document comes from, and what is refused before any frame sees it.
 */
import { describe, expect, it, vi } from 'vitest';
import { loadAppHtml } from './load-app-html.js';
import { isToolAllowed, MCP_APP_MIME_TYPE, type McpAppServer } from './mcp-app-options.js';

function serverWith(contents: Array<Record<string, unknown>>): McpAppServer {
  return {
    readResource: vi.fn(async () => ({ contents }) as never),
    callTool: vi.fn(),
  };
}

const options = { maxHtmlBytes: 1000 };

describe('loadAppHtml', () => {
  it('reads the ui:// resource of the app MIME type, as text or base64 blob', async () => {
    const text = serverWith([
      { uri: 'ui://other', mimeType: MCP_APP_MIME_TYPE, text: 'other' },
      { uri: 'ui://app', mimeType: MCP_APP_MIME_TYPE, text: '<p>app</p>' },
    ]);
    await expect(
      loadAppHtml({ resourceUri: 'ui://app' }, { ...options, server: text }),
    ).resolves.toBe('<p>app</p>');
    const blob = serverWith([
      {
        uri: 'ui://app',
        mimeType: 'text/html; profile=mcp-app',
        blob: btoa('<p>é</p>'.replace('é', '\u00c3\u00a9')),
      },
    ]);
    await expect(
      loadAppHtml({ resourceUri: 'ui://app' }, { ...options, server: blob }),
    ).resolves.toBe('<p>é</p>');
  });

  it('refuses a non-ui:// resource, another MIME type, no server, and an oversized app', async () => {
    const server = serverWith([{ uri: 'ui://app', mimeType: 'application/javascript', text: 'x' }]);
    await expect(
      loadAppHtml({ resourceUri: 'https://evil.test/app' }, { ...options, server }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(server.readResource).not.toHaveBeenCalled();
    await expect(
      loadAppHtml({ resourceUri: 'ui://app' }, { ...options, server }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    await expect(
      loadAppHtml({ resourceUri: 'ui://app' }, { ...options, server: undefined }),
    ).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    await expect(
      loadAppHtml({ content: 'x'.repeat(1001) }, { ...options, server: undefined }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('takes inline content as is or url_encoded, and refuses a malformed encoding', async () => {
    await expect(
      loadAppHtml({ content: '<h1>Hi</h1>' }, { ...options, server: undefined }),
    ).resolves.toBe('<h1>Hi</h1>');
    await expect(
      loadAppHtml(
        { content: 'url_encoded:%3Ch1%3EHello%2C%20World!%3C%2Fh1%3E' },
        { ...options, server: undefined },
      ),
    ).resolves.toBe('<h1>Hello, World!</h1>');
    await expect(
      loadAppHtml({ content: 'url_encoded:%E0%A4%A' }, { ...options, server: undefined }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(loadAppHtml({}, { ...options, server: undefined })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });
});

describe('isToolAllowed', () => {
  it('needs both the host and the component to allow a tool', () => {
    expect(isToolAllowed('roll', ['roll'], ['roll'])).toBe(true);
    expect(isToolAllowed('roll', ['roll'], [])).toBe(false);
    expect(isToolAllowed('roll', [], ['roll'])).toBe(false);
    expect(isToolAllowed('roll', ['roll'], 'roll')).toBe(false);
  });
});
