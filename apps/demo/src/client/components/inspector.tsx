/**
 * The message inspector: every message in both directions, newest first, with time, direction,
 * validation status and pretty JSON.
 */
import { useId, useMemo, useState, useSyncExternalStore } from 'react';
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
          {entry.surfaceId !== undefined && (
            <span className="log-surface" title={entry.surfaceId}>
              {entry.surfaceId}
            </span>
          )}
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
  /** Said under the heading: what the transport's traffic looks like in the network panel. */
  networkNote?: string;
}

/** Surface ids that appear in `entries`, in order of first appearance. */
function surfaceIdsOf(entries: readonly LogEntry[]): string[] {
  const ids = new Set<string>();
  for (const entry of entries) if (entry.surfaceId !== undefined) ids.add(entry.surfaceId);
  return [...ids];
}

/** Entries the chosen direction filter and surface filter let through, newest first. */
function selectEntries(
  entries: readonly LogEntry[],
  filter: Filter,
  surfaceId: string,
): LogEntry[] {
  const list = entries.filter(
    (entry) =>
      (filter === 'all' ||
        (filter === 'errors' ? entry.errors.length > 0 : entry.direction === filter)) &&
      (surfaceId === '' || entry.surfaceId === surfaceId),
  );
  return list.reverse();
}

/** The inspector panel. */
export function Inspector({ log, networkNote }: InspectorProps) {
  const live = useSyncExternalStore(log.subscribe, log.getSnapshot);
  const [filter, setFilter] = useState<Filter>('all');
  const [surfaceId, setSurfaceId] = useState('');
  /** The entries as they were when the reader paused; `undefined` while following live. */
  const [paused, setPaused] = useState<readonly LogEntry[]>();
  const surfaceFilterId = useId();
  const entries = paused ?? live;
  // Counted by the log itself: every message of a batch, and after old entries are dropped.
  const { errorCount, receivedCount: received, sentCount: sent } = log;
  const shown = useMemo(
    () => selectEntries(entries, filter, surfaceId),
    [entries, filter, surfaceId],
  );
  const surfaceIds = useMemo(() => surfaceIdsOf(live), [live]);
  const waiting = paused ? live.length - paused.length : 0;

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
      {networkNote && (
        <p className="inspector-note" data-testid="inspector-network-note">
          {networkNote}
        </p>
      )}
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
        <span className="inspector-surface-filter">
          <label htmlFor={surfaceFilterId}>Surface</label>
          <select
            id={surfaceFilterId}
            data-testid="inspector-surface-filter"
            value={surfaceId}
            onChange={(event) => setSurfaceId(event.target.value)}
          >
            <option value="">All surfaces</option>
            {surfaceIds.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </span>
      </div>
      <div className="inspector-tools inspector-tools--start">
        <button
          type="button"
          className="button button--ghost inspector-button"
          data-testid="inspector-pause"
          aria-pressed={paused !== undefined}
          onClick={() => setPaused(paused ? undefined : live)}
        >
          {paused ? 'Resume' : 'Pause'}
        </button>
        {/* Never disabled: a control that disables itself when pressed drops the focus. */}
        <button
          type="button"
          className="button button--ghost inspector-button"
          data-testid="inspector-clear"
          onClick={() => {
            log.clear();
            setPaused(undefined);
          }}
        >
          Clear
        </button>
        <button
          type="button"
          className="button button--ghost inspector-button"
          data-testid="export-transcript"
          title="The received messages as JSONL: a2ui replay reads it, the gallery's upload streams it again"
          disabled={log.transcriptSize.messages === 0}
          onClick={() => downloadTranscript(log)}
        >
          Export JSONL
        </button>
      </div>
      {paused && (
        <p className="inspector-paused" role="status" data-testid="inspector-paused">
          Paused
          {waiting > 0 ? ` — ${waiting} new ${waiting === 1 ? 'entry' : 'entries'} waiting` : ''}
        </p>
      )}
      {shown.length === 0 ? (
        <p className="empty">
          {surfaceId === ''
            ? FILTERS.find((entry) => entry.id === filter)?.empty
            : `Nothing here for surface ${surfaceId}.`}
        </p>
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
