/**
 * `migrateMessages`: converts an agent→renderer message stream between A2UI versions (v0.8, v0.9,
 * v1.0), reporting everything the target version cannot express.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { isRecord } from '../protocol/guards.js';
import type { ServerMessage } from '../protocol/messages.js';
import { DEFAULT_MAX_DEPTH, findDepthViolation } from '../validation/find-depth-violation.js';
import { pointerAsSent } from '../versions/normalize-reserved-keys.js';
import { V08Downgrader } from '../versions/v0-8/v08-downgrader.js';
import { getV08MessageKind, type V08ServerMessage } from '../versions/v0-8/v08-messages.js';
import { V08Upgrader } from '../versions/v0-8/v08-upgrader.js';
import { IssueSink, type MigrationIssue } from './migration-issue.js';
import { upgradeV09ToV10, V10Downgrader, type V10Message } from './v09-v10.js';

/** A version `migrateMessages` reads and writes. v0.9.1 shares v0.9's messages. */
export type MigrationVersion = 'v0.8' | 'v0.9' | 'v1.0';

/** Envelope `version` spellings by the version they mean. */
const ENVELOPE_VERSIONS: Record<string, MigrationVersion> = {
  'v0.8': 'v0.8',
  'v0.9': 'v0.9',
  'v0.9.1': 'v0.9',
  'v1.0': 'v1.0',
  '1.0': 'v1.0',
};

/**
 * The version of one agent→renderer message, from its envelope: `version` when present, else
 * v0.8 when it carries a v0.8 key (`beginRendering`, `surfaceUpdate`, `dataModelUpdate`,
 * `deleteSurface`), which v0.8 messages do without `version`.
 *
 * @returns the version, or `undefined` when it is none of these
 *
 * @example
 * ```ts
 * detectMessageVersion({ surfaceUpdate: { surfaceId: 's', components: [] } }); // 'v0.8'
 * detectMessageVersion({ version: 'v0.9.1', deleteSurface: { surfaceId: 's' } }); // 'v0.9'
 * ```
 */
export function detectMessageVersion(message: unknown): MigrationVersion | undefined {
  if (!isRecord(message)) return undefined;
  if (typeof message.version === 'string' && message.version !== 'v0.8') {
    return ENVELOPE_VERSIONS[message.version];
  }
  return getV08MessageKind(message) ? 'v0.8' : undefined;
}

/** Options of {@link migrateMessages}. */
export interface MigrateMessagesOptions {
  /** The version to write. */
  to: MigrationVersion;
  /**
   * Read every message as this version instead of detecting it per message.
   * @default detected per message ({@link detectMessageVersion})
   */
  from?: MigrationVersion;
  /**
   * Deepest nesting of arrays and objects in a message (the message is level 1). A deeper
   * message is dropped with one issue at the pointer of its first too-deep container (the
   * check `validate` and `replay` use), instead of overflowing the stack in the translators
   * or in `JSON.stringify`.
   * @default 64 ({@link DEFAULT_MAX_DEPTH}, the limit of every validator in core)
   */
  maxDepth?: number;
}

/** Result of {@link migrateMessages}. */
export interface MigrateMessagesResult {
  /** The converted stream, in order; one input message may become several, or none. */
  messages: Record<string, unknown>[];
  /** Everything that could not be expressed in the target version; empty when nothing was lost. */
  issues: MigrationIssue[];
}

/**
 * Converts agent→renderer messages (assumed schema-valid in their own version) to version `to`.
 * A message the translators cannot read (not schema-valid, or nested deeper than `maxDepth`) is
 * dropped with one issue; it never throws.
 * Messages already in `to` are copied unchanged; the others go through v0.9 (v0.8 → v0.9 → v1.0,
 * v1.0 → v0.9 → v0.8). Nothing is dropped silently: each loss is one {@link MigrationIssue}.
 *
 * - v0.8 → v0.9: `beginRendering` becomes `createSurface` (components and data sent before it
 *   follow it), a root other than `"root"` is renamed, standard-catalog components are mapped
 *   onto the basic catalog.
 * - v0.9 → v1.0: a Text `h1`–`h5` becomes a Markdown heading line (`# Title`, a binding through
 *   `formatString`), as the v1.0 basic catalog writes headings; `theme`, a heading whose text is
 *   another function call, and literal check conditions are reported; an omitted
 *   `updateDataModel.value` becomes `null`.
 * - v1.0 → v0.9: inline `createSurface` content becomes separate messages; a Text that is one
 *   Markdown heading line becomes the heading variant; function-call messages, metadata, foreign
 *   catalogs and v1.0-only properties are reported.
 * - v0.9 → v0.8: functions, checks, accessibility, arrays and `null` in data are reported.
 *
 * @example
 * ```ts
 * const { messages, issues } = migrateMessages(v08Stream, { to: 'v1.0' });
 * for (const issue of issues) console.error(`message ${issue.index} ${issue.path}: ${issue.message}`);
 * ```
 */
export function migrateMessages(
  messages: readonly unknown[],
  options: MigrateMessagesOptions,
): MigrateMessagesResult {
  const migrator = new MessageMigrator(options);
  const result = migrator.migrate(messages);
  result.issues.push(...migrator.finish());
  return result;
}

/**
 * {@link migrateMessages} for a stream that arrives in batches (an agent's sends on one
 * connection): the translators' state — a v0.8 surface's buffered content until
 * `beginRendering`, each v1.0 surface's default catalog — carries over from one batch to the
 * next. Each batch's issues are indexed within that batch.
 *
 * @example
 * ```ts
 * const migrator = new MessageMigrator({ to: 'v1.0' });
 * for (const batch of batches) connection.send(migrator.migrate(batch).messages as never);
 * ```
 */
export class MessageMigrator {
  readonly #options: MigrateMessagesOptions;
  readonly #upgrader = new V08Upgrader();
  readonly #v10Downgrader = new V10Downgrader();
  readonly #v08Downgrader = new V08Downgrader();

  constructor(options: MigrateMessagesOptions) {
    this.#options = options;
  }

  /** Converts one batch; never throws (see {@link migrateMessages}). */
  migrate(messages: readonly unknown[]): MigrateMessagesResult {
    const options = this.#options;
    const sink = new IssueSink();
    const out: Record<string, unknown>[] = [];
    messages.forEach((message, index) => {
      sink.index = index;
      const tooDeep = findDepthViolation(message, options.maxDepth ?? DEFAULT_MAX_DEPTH);
      if (tooDeep !== undefined) {
        sink.lost(tooDeep.path, `${tooDeep.message} The message is dropped.`);
        return;
      }
      const from = options.from ?? detectMessageVersion(message);
      if (from === undefined) {
        sink.lost('', 'not an A2UI agent message of a known version; dropped');
        return;
      }
      if (from === options.to) {
        out.push(message as Record<string, unknown>);
        return;
      }
      const issueCount = sink.issues.length;
      try {
        let v09: ServerMessage[];
        if (from === 'v0.8') {
          const result = this.#upgrader.upgrade(message as V08ServerMessage, index);
          sink.issues.push(...result.issues);
          v09 = result.messages;
        } else if (from === 'v1.0') {
          v09 = this.#v10Downgrader.downgrade(message as V10Message, sink);
        } else {
          v09 = [message as ServerMessage];
        }
        const converted: Record<string, unknown>[] = [];
        for (const item of v09)
          converted.push(...fromV09(item, options.to, this.#v08Downgrader, sink));
        out.push(...converted);
        // The translators read v1.0's drafted `@` keys as bare ones: point at them as written.
        if (from === 'v1.0') {
          for (const issue of sink.issues.slice(issueCount))
            issue.path = pointerAsSent(message, issue.path);
        }
      } catch (error) {
        // The translators assume schema-valid input; a malformed message (`components: 5`, a
        // `null` component) is reported and dropped instead of ending the whole migration. A spec
        // error of a reader (an unknown `@` key in v1.0) says where and what.
        sink.issues.length = issueCount;
        sink.index = index;
        if (A2uiError.isInstance(error) && error.code === 'VALIDATION_FAILED')
          sink.lost(error.path ?? '', `${error.message} The message is dropped.`);
        else sink.lost('', `not a schema-valid ${from} message (validate it first); dropped`);
      }
    });
    return { messages: out, issues: sink.issues };
  }

  /**
   * Ends the stream: what a translator still holds and cannot write (v0.8 content of a surface
   * that never got `beginRendering`) is reported, with `index: -1`.
   */
  finish(): MigrationIssue[] {
    return this.#upgrader.finish();
  }
}

function fromV09(
  message: ServerMessage,
  to: MigrationVersion,
  v08Downgrader: V08Downgrader,
  sink: IssueSink,
): Record<string, unknown>[] {
  if (to === 'v0.9') return [message as unknown as Record<string, unknown>];
  if (to === 'v1.0') return [upgradeV09ToV10(message, sink)];
  const result = v08Downgrader.downgrade(message, sink.index);
  sink.issues.push(...result.issues);
  return result.messages as unknown as Record<string, unknown>[];
}
