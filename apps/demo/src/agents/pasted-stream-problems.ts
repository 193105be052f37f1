/**
 * The problems of a pasted or uploaded stream as the gallery lists them: one numbering, the line
 * of the text each one is on (the paste panel marks it), and no words about how something would
 * render, since a stream with problems is not streamed at all.
 */
import type { ClientError } from '@a2ui-ts/core';

/** One listed problem: where (`Line 3 · VALIDATION_FAILED at /…`), its line, and what is wrong. */
export interface PastedStreamProblem {
  /** The 1-based line of the text the problem is on, when it can be told. */
  line?: number;
  where: string;
  message: string;
}

/**
 * Describes `problems` (from `checkMessages(items, name, …)`) of `text`: the CLI's prefixes
 * (`<name> message 2 (line 3): `, `<name>:3: `, `<name>: `) become the line of the text, found
 * for messages of a JSON document too (the element of the array that holds them).
 */
export function describePastedProblems(
  text: string,
  name: string,
  problems: readonly ClientError[],
): PastedStreamProblem[] {
  let starts: number[] | undefined;
  const lineOfMessage = (number: number) => {
    starts ??= messageOffsets(text);
    const offset = starts[number - 1];
    return offset === undefined ? undefined : lineAt(text, offset);
  };
  return problems.map((problem) => {
    let line: number | undefined;
    let message = problem.message;
    let number: number | undefined;
    const prefix = escapeRegExp(name);
    const ofMessage = new RegExp(`^${prefix} message (\\d+)(?: \\(line (\\d+)\\))?: `).exec(
      message,
    );
    // A read failure starts with what it is ("Not valid JSON: "), then the place.
    const ofLine = new RegExp(`^((?:[^:]+: )?)${prefix}:(\\d+): `).exec(message);
    const ofText = new RegExp(`^((?:[^:]+: )?)${prefix}: `).exec(message);
    if (ofMessage) {
      number = Number(ofMessage[1]);
      line = ofMessage[2] ? Number(ofMessage[2]) : lineOfMessage(number);
      message = message.slice(ofMessage[0].length);
    } else if (ofLine) {
      line = Number(ofLine[2]);
      message = ofLine[1] + message.slice(ofLine[0].length);
    } else if (ofText) {
      message = ofText[1] + message.slice(ofText[0].length);
      // JSON.parse says where a document breaks: "… at position 42" (and, on newer engines, the line).
      const position = /at position (\d+)/.exec(message);
      if (position) line = lineAt(text, Number(position[1]));
    }
    // Nothing of a refused stream is rendered, as a fallback or otherwise.
    message = message.replace(/; it is rendered as a fallback\.$/, '.');
    // Lines number JSONL's messages; a document's messages also go by their index in it.
    const label =
      line === undefined
        ? number === undefined
          ? ''
          : `Message ${number}`
        : number === undefined || ofMessage?.[2]
          ? `Line ${line}`
          : `Line ${line} (message ${number})`;
    const code =
      typeof problem.path === 'string' && problem.path !== ''
        ? `${problem.code} at ${problem.path}`
        : problem.code;
    return {
      ...(line !== undefined ? { line } : {}),
      where: label ? `${label} · ${code}` : code,
      message: capitalize(message),
    };
  });
}

/** 1-based line of `offset` in `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset && index < text.length; index++)
    if (text.charCodeAt(index) === 10) line++;
  return line;
}

/**
 * Offsets where the messages of a JSON document start: the elements of a top-level array, or of
 * the `messages` array of a `{messages: […]}` wrapper, or the document itself (one message).
 */
function messageOffsets(text: string): number[] {
  const first = text.search(/\S/);
  if (first === -1) return [];
  if (text[first] !== '[' && !/^\{\s*"messages"\s*:\s*\[/.test(text.slice(first))) return [first];
  const starts: number[] = [];
  const target = text[first] === '[' ? 1 : 2;
  let depth = 0;
  let expecting = false;
  for (let index = first; index < text.length; index++) {
    const char = text[index]!;
    if (/\s/.test(char)) continue;
    if (expecting && char !== ']') starts.push(index);
    expecting = false;
    if (char === '"') {
      // Skip the string, escapes included.
      for (index++; index < text.length && text[index] !== '"'; index++)
        if (text[index] === '\\') index++;
    } else if (char === '[' || char === '{') {
      depth++;
      if (char === '[' && depth === target) expecting = true;
    } else if (char === ']' || char === '}') {
      if (depth === target && char === ']') return starts;
      depth--;
    } else if (char === ',' && depth === target) expecting = true;
  }
  return starts;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function capitalize(value: string): string {
  return value.charAt(0).toUpperCase() + value.slice(1);
}
