/**
 * What a version translation could not express: reported, never dropped silently.
 */

/** One thing a translation between protocol versions dropped or changed. */
export interface MigrationIssue {
  /** Index of the input message concerned (0-based), or `-1` for the stream as a whole. */
  index: number;
  /** JSON Pointer into that input message; `""` for the whole message. */
  path: string;
  /** What was lost or changed, in the spec's terms. */
  message: string;
}

/** Collects {@link MigrationIssue}s of one input message. */
export class IssueSink {
  readonly issues: MigrationIssue[] = [];
  index = -1;

  /** Records that something at `path` (relative to the current message) could not be expressed. */
  lost(path: string, message: string): void {
    this.issues.push({ index: this.index, path, message });
  }
}
