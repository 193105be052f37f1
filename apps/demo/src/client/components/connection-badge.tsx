/**
 * The link status and how often it came back.
 */
import type { A2uiClient } from '@a2ui-ts/core';
import { useLinkState } from '../use-demo-connection.js';

const LABELS = {
  connecting: 'Connecting…',
  open: 'Connected',
  degraded: 'Connected — messages waiting',
  reconnecting: 'Reconnecting…',
  closed: 'Disconnected',
} as const;

/** Props of {@link ConnectionBadge}. */
export interface ConnectionBadgeProps {
  client: A2uiClient;
}

/** A pill: status dot, label, reconnect count. */
export function ConnectionBadge({ client }: ConnectionBadgeProps) {
  const link = useLinkState(client);
  const count = link.reconnects + link.resets;
  return (
    <output
      className={`status status--${link.status}`}
      data-testid="connection-status"
      data-status={link.status}
      data-reconnects={link.reconnects}
      data-resets={link.resets}
      title={link.reason}
    >
      <span className="status-dot" aria-hidden="true" />
      {LABELS[link.status]}
      {link.status === 'degraded' && link.reason && (
        <span className="visually-hidden">: {link.reason}</span>
      )}
      {count > 0 && (
        <span className="status-count">
          {' '}
          · {link.reconnects} {link.reconnects === 1 ? 'reconnect' : 'reconnects'}
          {link.resets > 0 && `, ${link.resets} ${link.resets === 1 ? 'reset' : 'resets'}`}
        </span>
      )}
    </output>
  );
}
