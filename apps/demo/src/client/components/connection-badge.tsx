/**
 * The link status and how often it came back.
 */
import type { A2uiClient } from '@a2ui-ts/core';
import { type LinkState, useLinkState } from '../use-demo-connection.js';

const LABELS = {
  connecting: 'Connecting…',
  open: 'Connected',
  degraded: 'Connected — messages waiting',
  reconnecting: 'Reconnecting…',
  closed: 'Disconnected',
} as const;

/** What the badge says: the status, and while messages wait, what the server said about it. */
export function connectionLabel(link: Pick<LinkState, 'status' | 'cause'>): string {
  if (link.status === 'degraded' && link.cause === 'store-unavailable')
    return 'Server storage unavailable — retrying';
  if (link.status === 'degraded' && link.cause === 'busy') return 'Agent busy — retrying';
  return LABELS[link.status];
}

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
      {connectionLabel(link)}
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
