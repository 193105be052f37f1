/**
 * Limits of the gallery's "your own stream" panel, shared by the page (which says so before
 * sending) and the gallery agent (which enforces them).
 */

/**
 * Largest pasted or uploaded stream, in UTF-8 bytes of its text. The text travels inside one
 * action, JSON-encoded (quotes and backslashes double), and every transport caps one client
 * message at 1 MiB; half of that leaves room for the escaping and the envelope.
 */
export const MAX_PASTED_STREAM_BYTES = 512 * 1024;

/**
 * Most problems listed on the error surface; the title says how many there are in all. One
 * surface listing 60,000 problems would exceed the renderer's template cap.
 */
export const MAX_LISTED_PROBLEMS = 200;

/** `1536` → "1.5 KB", `2_500_000` → "2.4 MB" (binary units, one decimal). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const kib = bytes / 1024;
  if (kib < 1024) return `${Number(kib.toFixed(1))} KB`;
  return `${Number((kib / 1024).toFixed(1))} MB`;
}

/** What the panel and the agent say about a stream over {@link MAX_PASTED_STREAM_BYTES}. */
export function tooLargeMessage(title: string, bytes: number): string {
  return `“${title}” is ${formatBytes(bytes)}; the gallery takes streams up to ${formatBytes(MAX_PASTED_STREAM_BYTES)}. Check a larger file with \`pnpm --silent a2ui validate <file>\`.`;
}
