/**
 * The message inspector: every message in both directions, newest first, with time, direction,
 * validation status and pretty JSON.
 */
import { useMemo, useState, useSyncExternalStore } from 'react';
import type { LogEntry, MessageLog } from '../message-log.js';
import { JsonView } from './json-view.js';

type Filter = 'all' | 'in' | 'out' | 'errors';

const FILTERS: Array<{ id: Filter; label: string; empty: string }> = [
  { id: 'all', label: 'All', empty: 'No messages yet.' },
  { id: 'in', label: 'Received', empty: 'No messages received yet.' },
  { id: 'out', label: 'Sent', empty: 'No messages sent yet.' },
  { id: 'errors', label: 'Errors', empty: 'No message had an error.' },
];

const ARROWS = { in: '↓', out: '↑', status: '•' } as const;

function formatTime(time: Date): string {
  return `${time.toLocaleTimeString('en-GB', { hour12: false })}.${String(time.getMilliseconds()).padStart(3, '0')}`;
}

function EntryRow({ entry }: { entry: LogEntry }) {
  const valid = entry.errors.length === 0;
  const status = entry.direction === 'status';
  return (
    <li>
      <details
        className={`log-entry log-entry--${entry.direction}${valid ? '' : ' log-entry--error'}`}
        data-testid="inspector-entry"
        data-direction={entry.direction}
        data-kind={entry.kind}
        data-valid={String(valid)}
      >
        <summary>
          <span className="log-time">{formatTime(entry.time)}</span>
          <span
            className="log-direction"
            title={
              entry.direction === 'in'
                ? 'server → client'
                : entry.direction === 'out'
                  ? 'client → server'
                  : 'link'
            }
          >
            {ARROWS[entry.direction]}
          </span>
          <span className="log-kind">{entry.kind}</span>
          {entry.surfaceId !== undefined && <span className="log-surface">{entry.surfaceId}</span>}
          {!status &&
            (valid ? (
              <span className="badge badge--ok">
                {entry.direction === 'in' ? 'applied' : 'sent'}
              </span>
            ) : (
              <span className="badge badge--error">
                {entry.errors.length} {entry.errors.length === 1 ? 'error' : 'errors'}
              </span>
            ))}
        </summary>
        {!valid && (
          <ul className="log-errors">
            {entry.errors.map((error) => (
              <li key={`${error.code}:${String(error.path ?? '')}:${error.message}`}>
                <strong>{error.code}</strong>
                {typeof error.path === 'string' && error.path !== '' && <code> {error.path}</code>}:{' '}
                {error.message}
              </li>
            ))}
          </ul>
        )}
        <JsonView value={entry.payload} label="Message" />
        {entry.metadata !== undefined && (
          <>
            <div className="log-metadata-title">Metadata</div>
            <JsonView value={entry.metadata} label="Metadata" />
          </>
        )}
      </details>
    </li>
  );
}

/** Saves the transcript as `a2ui-transcript-<time>.jsonl` through a temporary link. */
function downloadTranscript(log: MessageLog): void {
  const url = URL.createObjectURL(new Blob([log.toJsonl()], { type: 'application/jsonl' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `a2ui-transcript-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`;
  link.click();
  // The download has started from the click; the URL is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Props of {@link Inspector}. */
export interface InspectorProps {
  log: MessageLog;
}

/** The inspector panel. */
export function Inspector({ log }: InspectorProps) {
  const entries = useSyncExternalStore(log.subscribe, log.getSnapshot);
  const [filter, setFilter] = useState<Filter>('all');
  // Counted by the log itself: every message of a batch, and after old entries are dropped.
  const { errorCount, receivedCount: received, sentCount: sent } = log;
  const shown = useMemo(() => {
    const list =
      filter === 'all'
        ? entries
        : filter === 'errors'
          ? entries.filter((entry) => entry.errors.length > 0)
          : entries.filter((entry) => entry.direction === filter);
    return [...list].reverse();
  }, [entries, filter]);

  return (
    <section className="panel inspector" aria-label="Message inspector">
      <header className="panel-header">
        <h2>Messages</h2>
        <span className="inspector-counts">
          <span data-testid="received-count">{received}</span> received ·{' '}
          <span data-testid="sent-count">{sent}</span> sent ·{' '}
          <span data-testid="error-count" className={errorCount > 0 ? 'text-error' : undefined}>
            {errorCount}
          </span>{' '}
          with errors
        </span>
      </header>
      <div className="inspector-tools">
        <fieldset className="segmented">
          <legend className="visually-hidden">Filter messages</legend>
          {FILTERS.map((entry) => (
            <button
              key={entry.id}
              type="button"
              aria-pressed={filter === entry.id}
              onClick={() => setFilter(entry.id)}
            >
              {entry.label}
            </button>
          ))}
        </fieldset>
        <button
          type="button"
          className="button button--ghost inspector-export"
          data-testid="export-transcript"
          title="The received messages as JSONL: a2ui replay reads it, the gallery's upload streams it again"
          disabled={received === 0}
          onClick={() => downloadTranscript(log)}
        >
          Export JSONL
        </button>
      </div>
      {shown.length === 0 ? (
        <p className="empty">{FILTERS.find((entry) => entry.id === filter)?.empty}</p>
      ) : (
        <ol className="log" data-testid="inspector-log">
          {shown.map((entry) => (
            <EntryRow key={entry.id} entry={entry} />
          ))}
        </ol>
      )}
    </section>
  );
}
