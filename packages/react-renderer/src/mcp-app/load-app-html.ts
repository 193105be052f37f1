/**
 * The app document of an `McpApp`: read from the MCP server (`resourceUri`, `resources/read`) or
 * taken inline (`content`, optionally `url_encoded:`), bounded in size.
 */
import { A2uiError, utf8ByteLength } from '@a2ui-ts/core';
import { MCP_APP_MIME_TYPE, type McpAppServer } from './mcp-app-options.js';

/** Where an app's HTML comes from, as the component's resolved properties give it. */
export interface AppSource {
  readonly resourceUri?: unknown;
  readonly content?: unknown;
}

/** Options of {@link loadAppHtml}. */
export interface LoadAppHtmlOptions {
  readonly server: McpAppServer | undefined;
  readonly maxHtmlBytes: number;
  readonly signal?: AbortSignal;
}

const URL_ENCODED_PREFIX = 'url_encoded:';

/**
 * The HTML of the app.
 *
 * @throws A2uiError `VALIDATION_FAILED` without a source, for a resource that is not a `ui://`
 *   HTML resource or is larger than `maxHtmlBytes`; `CONNECTION_CLOSED` without a server for a
 *   `resourceUri`; the server's error when `resources/read` fails
 */
export async function loadAppHtml(source: AppSource, options: LoadAppHtmlOptions): Promise<string> {
  const html = await readHtml(source, options);
  if (utf8ByteLength(html) > options.maxHtmlBytes)
    throw new A2uiError(
      'VALIDATION_FAILED',
      `The MCP App is larger than ${options.maxHtmlBytes} bytes.`,
    );
  return html;
}

async function readHtml(source: AppSource, options: LoadAppHtmlOptions): Promise<string> {
  const { resourceUri, content } = source;
  if (typeof resourceUri === 'string') {
    if (!resourceUri.startsWith('ui://'))
      throw new A2uiError('VALIDATION_FAILED', 'An MCP App resource must be a ui:// URI.');
    if (!options.server)
      throw new A2uiError('CONNECTION_CLOSED', 'No MCP server is configured for MCP Apps.');
    const result = await options.server.readResource(
      { uri: resourceUri },
      { signal: options.signal },
    );
    for (const entry of result.contents) {
      if (entry.uri !== resourceUri || !isAppMimeType(entry.mimeType)) continue;
      if ('text' in entry && typeof entry.text === 'string') return entry.text;
      if ('blob' in entry && typeof entry.blob === 'string') return decodeBase64(entry.blob);
    }
    throw new A2uiError(
      'VALIDATION_FAILED',
      `${resourceUri} holds no ${MCP_APP_MIME_TYPE} document.`,
    );
  }
  if (typeof content === 'string' && content.length > 0) {
    if (!content.startsWith(URL_ENCODED_PREFIX)) return content;
    try {
      return decodeURIComponent(content.slice(URL_ENCODED_PREFIX.length));
    } catch (error) {
      throw new A2uiError('VALIDATION_FAILED', 'The url_encoded MCP App content is malformed.', {
        cause: error,
      });
    }
  }
  throw new A2uiError('VALIDATION_FAILED', 'An McpApp needs resourceUri or content.');
}

/** `text/html;profile=mcp-app`, as the extension names it; plain `text/html` from older servers. */
function isAppMimeType(mimeType: string | undefined): boolean {
  const normalized = mimeType?.replace(/\s+/g, '').toLowerCase();
  return normalized === MCP_APP_MIME_TYPE || normalized === 'text/html';
}

function decodeBase64(blob: string): string {
  const bytes = Uint8Array.from(atob(blob), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
