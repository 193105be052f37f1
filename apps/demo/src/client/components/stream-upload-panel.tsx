/**
 * Paste or upload an A2UI stream (JSON, JSONL or a sample file) for the gallery agent, which
 * validates it before streaming and shows every problem it finds.
 */
import type { A2uiClient } from '@a2ui-ts/core';
import {
  type ChangeEvent,
  type FormEvent,
  useEffect,
  useId,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { MAX_PASTED_STREAM_BYTES, tooLargeMessage } from '../../shared/pasted-stream-limits.js';

/** Action name the gallery agent listens to (`LOAD_STREAM_ACTION` on the server). */
const LOAD_STREAM_ACTION = 'loadStream';
/** The gallery's control surface; the action claims to come from it. */
const CONTROLS_SURFACE_ID = 'gallery-controls';
/** The surface listing a refused stream's problems (`GALLERY_ERRORS_SURFACE_ID` on the server). */
const ERRORS_SURFACE_ID = 'gallery-stream-errors';

/**
 * The lines of the text the listed problems are on, in order, without repeats (the agent puts
 * `line` in each item of `/issues`), as a string so the store's snapshot is stable.
 */
function problemLines(client: A2uiClient): string {
  const issues = client.processor.getSurface(ERRORS_SURFACE_ID)?.dataModel.get('/issues');
  if (!Array.isArray(issues)) return '';
  const lines = issues
    .map((issue) => (issue as { line?: unknown } | null)?.line)
    .filter((line): line is number => typeof line === 'number' && Number.isInteger(line));
  return [...new Set(lines)].join(',');
}

/** Calls `listener` when the problems surface comes, goes, or its data model changes. */
function subscribeToProblems(client: A2uiClient, listener: () => void): () => void {
  let surface: ReturnType<A2uiClient['processor']['getSurface']>;
  let unsubscribeModel = () => {};
  const follow = () => {
    const current = client.processor.getSurface(ERRORS_SURFACE_ID);
    if (current !== surface) {
      unsubscribeModel();
      surface = current;
      unsubscribeModel = current ? current.dataModel.subscribe('/', listener) : () => {};
    }
    listener();
  };
  const unsubscribe = client.processor.subscribe(follow);
  follow();
  return () => {
    unsubscribe();
    unsubscribeModel();
  };
}

/** Offsets of the start and end of 1-based `line` in `text`. */
function lineRange(text: string, line: number): [number, number] {
  let start = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf('\n', start);
    if (next === -1) return [text.length, text.length];
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  return [start, end === -1 ? text.length : end];
}

/** "line 3", "lines 2 and 5", "lines 2, 3 and 5" (the first 10, then "and N more"). */
function describeLines(lines: readonly number[]): string {
  if (lines.length === 1) return `line ${lines[0]}`;
  const shown = lines.slice(0, 10).map(String);
  const rest = lines.length - shown.length;
  if (rest > 0) return `lines ${shown.join(', ')} and ${rest} more`;
  return `lines ${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/** Props of {@link StreamUploadPanel}. */
export interface StreamUploadPanelProps {
  client: A2uiClient;
}

/** The paste / upload form. */
export function StreamUploadPanel({ client }: StreamUploadPanelProps) {
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState('');
  const [sending, setSending] = useState(false);
  const [problem, setProblem] = useState<string>();
  const textId = useId();
  const linesId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const textArea = useRef<HTMLTextAreaElement>(null);
  /** The text last sent: the agent's line numbers are about it, until the user edits it. */
  const [sentText, setSentText] = useState<string>();
  const linesKey = useSyncExternalStore(
    (listener) => subscribeToProblems(client, listener),
    () => problemLines(client),
  );
  const lines = linesKey === '' ? [] : linesKey.split(',').map(Number);
  const marked = sentText !== undefined && sentText === text && lines.length > 0;

  // When the agent refuses what was just sent, its first bad line is selected in the text.
  const firstLine = marked ? lines[0] : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new refusal selects its first line again
  useEffect(() => {
    const area = textArea.current;
    if (firstLine === undefined || !area) return;
    const [start, end] = lineRange(area.value, firstLine);
    area.focus();
    area.setSelectionRange(start, end);
  }, [firstLine, linesKey]);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setText(await file.text());
    setFileName(file.name);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    setProblem(undefined);
    // Said at once, here: a stream over the limit would only be refused after the upload.
    const bytes = new TextEncoder().encode(text).length;
    if (bytes > MAX_PASTED_STREAM_BYTES) {
      setProblem(tooLargeMessage(fileName || 'Pasted stream', bytes));
      return;
    }
    setSending(true);
    setSentText(text);
    try {
      const delayMs = client.processor.getSurface(CONTROLS_SURFACE_ID)?.dataModel.get('/delayMs');
      await client.send({
        version: 'v0.9',
        action: {
          name: LOAD_STREAM_ACTION,
          surfaceId: CONTROLS_SURFACE_ID,
          sourceComponentId: 'stream-upload',
          timestamp: new Date().toISOString(),
          context: { text, fileName, ...(typeof delayMs === 'number' ? { delayMs } : {}) },
        },
      });
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setSending(false);
    }
  };

  return (
    <form className="panel upload-panel" onSubmit={onSubmit} aria-label="Stream your own messages">
      <header className="panel-header">
        <h2>Your own stream</h2>
      </header>
      <label htmlFor={textId} className="field-label">
        Paste A2UI messages in any version (v0.8, v0.9, v0.9.1, v1.0): a JSON array, one message per
        line (JSONL), or a sample file
      </label>
      <textarea
        id={textId}
        ref={textArea}
        aria-invalid={marked || undefined}
        aria-describedby={marked ? linesId : undefined}
        data-testid="stream-input"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setFileName('');
        }}
        rows={6}
        spellCheck={false}
        placeholder='[{"version":"v0.9","createSurface":{"surfaceId":"hello","catalogId":"https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json"}}, …]'
      />
      {marked && (
        <p id={linesId} className="text-error stream-lines" data-testid="stream-lines">
          Not streamed: problems on {describeLines(lines)} (the first is selected); each is listed
          under “Invalid stream”.
        </p>
      )}
      <div className="upload-actions">
        {/* A real button: a <label> around a hidden input is skipped by Tab. */}
        <button
          type="button"
          className="button button--ghost"
          data-testid="stream-upload"
          onClick={() => fileInput.current?.click()}
        >
          Upload file
        </button>
        <input
          ref={fileInput}
          type="file"
          accept=".json,.jsonl,application/json,text/plain"
          onChange={onFile}
          hidden
          tabIndex={-1}
          aria-hidden="true"
          data-testid="stream-file"
        />
        {fileName && <span className="upload-file">{fileName}</span>}
        <button
          type="submit"
          className="button button--primary"
          // Not `disabled` while sending: disabling the focused button would drop the focus.
          disabled={text.trim() === ''}
          aria-disabled={sending || undefined}
          data-testid="stream-submit"
        >
          Validate and stream
        </button>
      </div>
      {problem && (
        <p role="alert" className="text-error" data-testid="stream-problem">
          {problem}
        </p>
      )}
    </form>
  );
}
