/**
 * `McpApp` (MCP Apps catalog): an MCP App in a double-iframe sandbox whose state reaches the rest
 * of the surface only through the data model (`value`) and the agent only through `action`.
 */
import { A2uiError, isRecord } from '@a2ui-ts/core';
import { useEffect, useRef, useState } from 'react';
import { rootAttributes } from '../components/component-helpers.js';
import type { A2uiComponent, A2uiComponentProps, A2uiNode } from '../registry/a2ui-component.js';
import { connectMcpApp } from './connect-mcp-app.js';
import { loadAppHtml } from './load-app-html.js';
import { isToolAllowed, MCP_APP_DEFAULTS, type McpAppOptions } from './mcp-app-options.js';

/** Resolved props of McpApp (see `MCP_APP_COMPONENT_SCHEMA` in core). */
export interface McpAppProps {
  /** `ui://` resource of the MCP server holding the app. */
  readonly resourceUri?: unknown;
  /** Inline app HTML, or `url_encoded:` + it percent-encoded; used without `resourceUri`. */
  readonly content?: unknown;
  /** Accessible name of the frame. */
  readonly title?: unknown;
  /** Tools this app may call (within the host's allow-list). */
  readonly allowedTools?: unknown;
  /** Bound (`{path}`): receives the app's model context. */
  readonly value?: unknown;
  /** Sent after each model-context update, unresolved until then. */
  readonly action?: unknown;
  /** Height before the app reports its own, in CSS pixels. @default 240 */
  readonly height?: unknown;
}

const MIN_HEIGHT_PX = 40;

/**
 * The `McpApp` implementation for one host configuration. Register it under
 * `MCP_APP_CATALOG_ID` (or use `createMcpAppRegistry`).
 *
 * @example
 * ```tsx
 * registry.register(MCP_APP_CATALOG_ID, 'McpApp', createMcpAppComponent({ proxyUrl: '/mcp-app-sandbox.html' }));
 * ```
 */
export function createMcpAppComponent(options: McpAppOptions): A2uiComponent<McpAppProps> {
  const hostAllowed = options.allowedTools ?? MCP_APP_DEFAULTS.allowedTools;
  const maxHeightPx = options.maxHeightPx ?? MCP_APP_DEFAULTS.maxHeightPx;
  const clamp = (height: unknown): number =>
    typeof height === 'number' && Number.isFinite(height)
      ? Math.min(Math.max(Math.round(height), MIN_HEIGHT_PX), maxHeightPx)
      : MCP_APP_DEFAULTS.initialHeightPx;

  // biome-ignore lint/correctness/noComponentHookFactories: made once per host configuration (the registry holds it), never during a render.
  function McpApp({ id, props, node }: A2uiComponentProps<McpAppProps>) {
    const frameRef = useRef<HTMLIFrameElement>(null);
    // Handlers outlive renders: they read the latest props and node, not the first ones.
    const latest = useRef({ props, node });
    latest.current = { props, node };
    const [height, setHeight] = useState(() => clamp(props.height));
    const [failure, setFailure] = useState<string>();
    const resourceUri = typeof props.resourceUri === 'string' ? props.resourceUri : undefined;
    const content = typeof props.content === 'string' ? props.content : undefined;
    const source = `${resourceUri ?? ''}\n${content ?? ''}`;

    useEffect(() => {
      const frame = frameRef.current;
      if (!frame) return;
      const controller = new AbortController();
      const sendAction = coalesce(() => latest.current.node.dispatchAction('action'));
      const fail = (error: unknown) => {
        if (controller.signal.aborted) return;
        const message = A2uiError.isInstance(error)
          ? error.message
          : 'The MCP App could not be loaded.';
        setFailure(message);
        latest.current.node.reportError({ code: 'MCP_APP_UNAVAILABLE', message });
      };
      setFailure(undefined);
      connectMcpApp({
        frame,
        proxyUrl: options.proxyUrl,
        hostInfo: options.hostInfo ?? MCP_APP_DEFAULTS.hostInfo,
        signal: controller.signal,
        loadHtml: (signal) =>
          loadAppHtml(
            { resourceUri, content },
            {
              server: options.server,
              maxHtmlBytes: options.maxHtmlBytes ?? MCP_APP_DEFAULTS.maxHtmlBytes,
              signal,
            },
          ),
        isToolAllowed: (tool) =>
          options.server !== undefined &&
          isToolAllowed(tool, hostAllowed, latest.current.props.allowedTools),
        callTool: (params, signal) => {
          if (!options.server) throw new A2uiError('CONNECTION_CLOSED', 'No MCP server.');
          return options.server.callTool(params, { signal });
        },
        onModelContext: (structured) => writeModelContext(latest.current, structured, sendAction),
        onHeight: (requested) => setHeight(clamp(requested)),
        openLink: (url) => {
          const allowed = latest.current.node.sanitizeUrl(url);
          if (allowed === undefined || !options.onOpenLink) return false;
          options.onOpenLink(allowed);
          return true;
        },
        onRefused: (request, subject) => options.onRefused?.({ request, subject, componentId: id }),
        onError: fail,
      }).catch(fail);
      return () => controller.abort();
    }, [resourceUri, content, id]);

    const title = typeof props.title === 'string' && props.title !== '' ? props.title : 'MCP App';
    return (
      <div {...rootAttributes(id, props, 'a2ui-mcp-app')}>
        {failure === undefined ? null : (
          <p className="a2ui-mcp-app-error" role="alert">
            {failure}
          </p>
        )}
        <iframe
          // A new source is a new frame: nothing of the previous app survives in it.
          key={source}
          ref={frameRef}
          className="a2ui-mcp-app-frame"
          title={title}
          hidden={failure !== undefined}
          style={{ height: `${height}px` }}
        />
      </div>
    );
  }
  return McpApp;
}

/** Writes the app's state to the bound `value`, then sends `action` (when there is one). */
function writeModelContext(
  current: { props: McpAppProps; node: A2uiNode },
  structured: Record<string, unknown> | undefined,
  sendAction: () => void,
): void {
  if (isRecord(structured) && current.node.isBound('value'))
    current.node.setValue('value', structured);
  if (current.props.action !== undefined) sendAction();
}

/**
 * At most one run in flight and one queued: an app that posts a thousand updates a second sends
 * the agent a handful of actions, each with the latest state.
 */
function coalesce(run: () => Promise<unknown>): () => void {
  let running = false;
  let queued = false;
  const next = (): void => {
    if (running) {
      queued = true;
      return;
    }
    running = true;
    void run()
      .catch(() => undefined)
      .finally(() => {
        running = false;
        if (queued) {
          queued = false;
          next();
        }
      });
  };
  return next;
}
