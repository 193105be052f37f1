/**
 * Paste or upload an A2UI stream (JSON, JSONL or a sample file) for the gallery agent, which
 * validates it before streaming and shows every problem it finds.
 */
import type { A2uiClient } from '@a2ui-ts/core';
import { type ChangeEvent, type FormEvent, useId, useRef, useState } from 'react';
import { MAX_PASTED_STREAM_BYTES, tooLargeMessage } from '../../shared/pasted-stream-limits.js';

/** Action name the gallery agent listens to (`LOAD_STREAM_ACTION` on the server). */
const LOAD_STREAM_ACTION = 'loadStream';
/** The gallery's control surface; the action claims to come from it. */
const CONTROLS_SURFACE_ID = 'gallery-controls';

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
  const fileInput = useRef<HTMLInputElement>(null);

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
