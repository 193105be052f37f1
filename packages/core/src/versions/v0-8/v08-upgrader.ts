/**
 * Upgrades a stream of v0.8 server messages into v0.9 ones, message by message. Stateful only as
 * v0.8 itself is: components and data sent before `beginRendering` are buffered (v0.8 §1.4) and
 * released behind the `createSurface` it becomes.
 */
import { A2uiError } from '../../errors/a2ui-error.js';
import { IssueSink, type MigrationIssue } from '../../migrate/migration-issue.js';
import { A2UI_VERSION, BASIC_CATALOG_ID, ROOT_COMPONENT_ID } from '../../protocol/constants.js';
import { isRecord } from '../../protocol/guards.js';
import type { ComponentInstance, ServerMessage } from '../../protocol/messages.js';
import {
  contentsToValue,
  entryValue,
  type Initialization,
  normalizeV08Path,
} from './bound-values.js';
import { upgradeComponent } from './translate-component.js';
import {
  getV08MessageKind,
  V08_STANDARD_CATALOG_ID,
  type V08BeginRendering,
  type V08DataModelUpdate,
  type V08ServerMessage,
  type V08SurfaceUpdate,
} from './v08-messages.js';

/** Options of {@link V08Upgrader}. */
export interface V08UpgraderOptions {
  /**
   * Rename a `beginRendering.root` other than `"root"` to `"root"` (v0.9 renders from the id
   * `root`), reporting it. Off in the processor, whose surfaces remember their root id instead.
   * @default true
   */
  renameRoot?: boolean;
  /**
   * Keep v0.8 catalog ids (the processor, which registers the v0.8 standard catalog) instead of
   * naming the v0.9 basic catalog for the v0.8 standard one (stream migration).
   * @default false
   */
  keepCatalogIds?: boolean;
  /**
   * Most messages buffered for surfaces whose `beginRendering` has not come, over all surfaces;
   * one more throws `LIMIT_EXCEEDED` (a stream that never begins must not grow without bound).
   * @default Infinity (a finite stream being migrated)
   */
  maxPendingMessages?: number;
}

/** The v0.9 messages one v0.8 message became, and what could not be expressed. */
export interface V08UpgradeResult {
  messages: ServerMessage[];
  issues: MigrationIssue[];
}

/** What {@link V08Upgrader.readSurfaceUpdate} reads from a `surfaceUpdate`. */
export interface V08ComponentsRead {
  components: ComponentInstance[];
  /** Data-model writes (JSON Pointer `path`) to apply before the components, in order. */
  initializations: Initialization[];
}

/** An issue sink that keeps nothing: for readers whose caller has no one to tell. */
class DroppedIssues extends IssueSink {
  override lost(): void {}
}
const DROPPED_ISSUES: IssueSink = new DroppedIssues();

interface SurfaceState {
  begun: boolean;
  /** The v0.8 catalog id `beginRendering` named (or the standard one). */
  catalogId: string;
  standard: boolean;
  rootId: string;
  pending: { message: V08ServerMessage; index: number }[];
}

/** v0.8 catalog id → the v0.9 catalog id its surface uses. */
function upgradeCatalogId(catalogId: string | undefined): string {
  return catalogId === undefined || catalogId === V08_STANDARD_CATALOG_ID
    ? BASIC_CATALOG_ID
    : catalogId;
}

/**
 * Translates v0.8 server messages into v0.9 ones. Feed messages in stream order; call
 * {@link V08Upgrader.finish} at the end to hear about surfaces that never got `beginRendering`.
 *
 * @example
 * ```ts
 * const upgrader = new V08Upgrader();
 * const { messages, issues } = upgrader.upgrade({ beginRendering: { surfaceId: 's', root: 'root' } });
 * ```
 */
export class V08Upgrader {
  readonly #renameRoot: boolean;
  readonly #keepCatalogIds: boolean;
  readonly #surfaces = new Map<string, SurfaceState>();
  readonly #maxPending: number;
  #pendingCount = 0;

  constructor(options: V08UpgraderOptions = {}) {
    this.#renameRoot = options.renameRoot ?? true;
    this.#maxPending = options.maxPendingMessages ?? Number.POSITIVE_INFINITY;
    this.#keepCatalogIds = options.keepCatalogIds ?? false;
  }

  /** The v0.8 catalog id of `surfaceId`, once its `beginRendering` came. */
  catalogIdOf(surfaceId: string): string | undefined {
    const state = this.#surfaces.get(surfaceId);
    return state?.begun ? state.catalogId : undefined;
  }

  /** The root component id `beginRendering` named for `surfaceId`, once it has. */
  rootIdOf(surfaceId: string): string | undefined {
    const state = this.#surfaces.get(surfaceId);
    return state?.begun ? state.rootId : undefined;
  }

  /**
   * For a reader that applies what it reads: begins `body.surfaceId` when nothing of it is known
   * yet (no `beginRendering` before, no buffered messages), and says whether it did. Otherwise
   * it changes nothing: {@link upgrade} handles that message (releasing what was buffered).
   */
  beginNew(body: V08BeginRendering): boolean {
    if (this.#surfaces.has(body.surfaceId)) return false;
    this.#surfaces.set(body.surfaceId, {
      begun: true,
      catalogId: body.catalogId ?? V08_STANDARD_CATALOG_ID,
      standard: upgradeCatalogId(body.catalogId) === BASIC_CATALOG_ID,
      rootId: body.root,
      pending: [],
    });
    return true;
  }

  /**
   * For a reader that applies what it reads: the components of a schema-valid `surfaceUpdate`
   * on a surface that has begun, in v0.9 shape, and the data writes their `{path, literal*}`
   * shorthands imply (v0.8 §4.2), as {@link upgrade} would give them but without its v0.9
   * messages and without issues (nobody reads them there). `undefined` while the surface waits
   * for `beginRendering`: {@link upgrade} buffers the message.
   */
  readSurfaceUpdate(body: V08SurfaceUpdate): V08ComponentsRead | undefined {
    const state = this.#surfaces.get(body.surfaceId);
    if (!state?.begun) return undefined;
    const initializations: Initialization[] = [];
    // One options object for the whole message; paths only word issues, which are dropped here.
    const options = { standard: state.standard, initializations, sink: DROPPED_ISSUES, path: '' };
    const source = body.components;
    const components: ComponentInstance[] = new Array(source.length);
    for (let index = 0; index < source.length; index++) {
      const upgraded = upgradeComponent(source[index]!, options);
      components[index] = this.#renameRoot ? renameRoot(upgraded, state.rootId) : upgraded;
    }
    for (let index = 0; index < initializations.length; index++) {
      const initialization = initializations[index]!;
      initialization.path = normalizeV08Path(initialization.path);
    }
    return { components, initializations };
  }

  /** Forgets every surface (a processor `reset`). */
  reset(): void {
    this.#surfaces.clear();
    this.#pendingCount = 0;
  }

  /**
   * Upgrades one v0.8 message (already schema-valid).
   * @param index - its position in the input, for issues
   */
  upgrade(message: V08ServerMessage, index = 0): V08UpgradeResult {
    const sink = new IssueSink();
    sink.index = index;
    const messages: ServerMessage[] = [];
    this.#upgradeInto(message, index, messages, sink);
    return { messages, issues: sink.issues };
  }

  /** Issues for surfaces whose `beginRendering` never came: a v0.8 client never shows them. */
  finish(): MigrationIssue[] {
    const issues: MigrationIssue[] = [];
    for (const [surfaceId, state] of this.#surfaces) {
      if (state.begun) continue;
      for (const { index } of state.pending) {
        issues.push({
          index,
          path: '',
          message: `surface "${surfaceId}" never received beginRendering, so a v0.8 client never renders this message; dropped`,
        });
      }
    }
    return issues;
  }

  #upgradeInto(
    message: V08ServerMessage,
    index: number,
    out: ServerMessage[],
    sink: IssueSink,
  ): void {
    const kind = getV08MessageKind(message);
    const body = isRecord(message) && kind ? (message as Record<string, unknown>)[kind] : undefined;
    if (!kind || !isRecord(body) || typeof body.surfaceId !== 'string') return;
    const surfaceId = body.surfaceId;
    let state = this.#surfaces.get(surfaceId);
    switch (kind) {
      case 'beginRendering':
        this.#begin(body as unknown as V08BeginRendering, state, out, sink);
        return;
      case 'deleteSurface':
        this.#pendingCount -= state?.pending.length ?? 0;
        this.#surfaces.delete(surfaceId);
        if (state?.begun) out.push({ version: A2UI_VERSION, deleteSurface: { surfaceId } });
        return;
    }
    if (!state?.begun && this.#pendingCount >= this.#maxPending) {
      throw new A2uiError(
        'LIMIT_EXCEEDED',
        `At most ${this.#maxPending} v0.8 messages may wait for their surface's beginRendering; send beginRendering first.`,
        { path: '', surfaceId },
      );
    }
    if (!state) {
      state = {
        begun: false,
        catalogId: V08_STANDARD_CATALOG_ID,
        standard: true,
        rootId: ROOT_COMPONENT_ID,
        pending: [],
      };
      this.#surfaces.set(surfaceId, state);
    }
    if (!state.begun) {
      this.#pendingCount++;
      state.pending.push({ message, index });
      return;
    }
    if (kind === 'surfaceUpdate')
      this.#surfaceUpdate(body as unknown as V08SurfaceUpdate, state, out, sink);
    else this.#dataModelUpdate(body as unknown as V08DataModelUpdate, out);
  }

  #begin(
    body: V08BeginRendering,
    state: SurfaceState | undefined,
    out: ServerMessage[],
    sink: IssueSink,
  ): void {
    const { surfaceId } = body;
    if (state?.begun) {
      if (body.root !== state.rootId) {
        sink.lost(
          '/beginRendering/root',
          `surface "${surfaceId}" already began rendering from "${state.rootId}"; a new root has no v0.9 equivalent`,
        );
      }
      return;
    }
    const pending = state?.pending ?? [];
    this.#pendingCount -= pending.length;
    const begun: SurfaceState = {
      begun: true,
      catalogId: body.catalogId ?? V08_STANDARD_CATALOG_ID,
      standard: upgradeCatalogId(body.catalogId) === BASIC_CATALOG_ID,
      rootId: body.root,
      pending: [],
    };
    this.#surfaces.set(surfaceId, begun);
    const createSurface: Record<string, unknown> = {
      surfaceId,
      catalogId: this.#keepCatalogIds ? begun.catalogId : upgradeCatalogId(body.catalogId),
    };
    if (body.styles !== undefined) createSurface.theme = body.styles;
    out.push({ version: A2UI_VERSION, createSurface } as unknown as ServerMessage);
    if (this.#renameRoot && body.root !== ROOT_COMPONENT_ID) {
      sink.lost(
        '/beginRendering/root',
        `root component "${body.root}" is renamed "${ROOT_COMPONENT_ID}" (v0.9 renders from the id "${ROOT_COMPONENT_ID}")`,
      );
    }
    const outer = sink.index;
    for (const { message, index } of pending) {
      sink.index = index;
      this.#upgradeInto(message, index, out, sink);
    }
    sink.index = outer;
  }

  #surfaceUpdate(
    body: V08SurfaceUpdate,
    state: SurfaceState,
    out: ServerMessage[],
    sink: IssueSink,
  ): void {
    const initializations: Initialization[] = [];
    const components = body.components.map((component, index) => {
      const upgraded = upgradeComponent(component, {
        standard: state.standard,
        initializations,
        sink,
        path: `/surfaceUpdate/components/${index}`,
      });
      return this.#renameRoot ? renameRoot(upgraded, state.rootId) : upgraded;
    });
    // The shorthand initialises the data model before the component binds to it (v0.8 §4.2).
    for (const { path, value } of initializations) {
      out.push({
        version: A2UI_VERSION,
        updateDataModel: { surfaceId: body.surfaceId, path: normalizeV08Path(path), value },
      });
    }
    out.push({
      version: A2UI_VERSION,
      updateComponents: { surfaceId: body.surfaceId, components },
    });
  }

  #dataModelUpdate(body: V08DataModelUpdate, out: ServerMessage[]): void {
    const [first] = body.contents;
    // `{"key": ".", …}` alone sets the value at `path` itself: the reference renderers'
    // convention for a value that is not a map (v0.8 has no other way to write one).
    const value =
      body.contents.length === 1 && first?.key === '.'
        ? entryValue(first)
        : contentsToValue(body.contents);
    out.push({
      version: A2UI_VERSION,
      updateDataModel: { surfaceId: body.surfaceId, path: normalizeV08Path(body.path), value },
    });
  }
}

/** Swaps the ids `rootId` and `"root"` wherever `component` names a component. */
function renameRoot(component: ComponentInstance, rootId: string): ComponentInstance {
  if (rootId === ROOT_COMPONENT_ID) return component;
  const swap = (id: unknown): unknown =>
    id === rootId ? ROOT_COMPONENT_ID : id === ROOT_COMPONENT_ID ? `${rootId}` : id;
  const result: ComponentInstance = { ...component, id: swap(component.id) as string };
  for (const key of ['child', 'trigger', 'content'] as const)
    if (key in result) result[key] = swap(result[key]);
  if (Array.isArray(result.children)) result.children = result.children.map(swap);
  else if (isRecord(result.children))
    result.children = { ...result.children, componentId: swap(result.children.componentId) };
  if (Array.isArray(result.tabs)) {
    result.tabs = result.tabs.map((tab) =>
      isRecord(tab) ? { ...tab, child: swap(tab.child) } : tab,
    );
  }
  return result;
}
