/**
 * The A2UI version the link negotiated, beside the link status: `auto` shows what the server
 * picked among the versions the client offered.
 */
import type { A2uiClient, ClientTransport } from '@a2ui-ts/core';
import { useLinkState } from '../use-demo-connection.js';
import type { VersionChoice } from '../version-choice.js';

/** Props of {@link VersionBadge}. */
export interface VersionBadgeProps {
  client: A2uiClient;
  transport: ClientTransport;
  choice: VersionChoice;
}

/** A pill: "A2UI v1.0 (auto)", "v1.0" at phone widths. */
export function VersionBadge({ client, transport, choice }: VersionBadgeProps) {
  // Re-read on every link change: the version is known once the link opened.
  const link = useLinkState(client);
  const version = link.status === 'connecting' ? undefined : transport.a2uiVersion;
  return (
    <output
      className="status status--version"
      data-testid="protocol-version"
      data-version={version ?? ''}
      data-choice={choice.id}
      title={
        choice.offeredVersions
          ? `The page offers ${choice.offeredVersions.join(', ')} only.`
          : 'The page offers every A2UI version; the server picked this one.'
      }
    >
      {/* On a phone the pill shows the version alone; the words stay for assistive technology. */}
      <span className="status-long">A2UI </span>
      {version ?? (choice.id === 'auto' ? '…' : choice.id)}
      {choice.id === 'auto' && version && <span className="status-long"> (auto)</span>}
    </output>
  );
}
