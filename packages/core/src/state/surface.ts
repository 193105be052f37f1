/**
 * One surface (spec §2.1): its catalog, theme, components and data model.
 */
import type { Catalog } from '../catalog/catalog.js';
import { A2UI_VERSION, ROOT_COMPONENT_ID } from '../protocol/constants.js';
import type { Theme } from '../protocol/messages.js';
import { ComponentStore } from './component-store.js';
import { DataModel, type DataModelLimits } from './data-model.js';
import type { Notifier } from './notifier.js';

/** Options of {@link Surface}. */
export interface SurfaceOptions {
  surfaceId: string;
  catalog: Catalog;
  theme?: Theme;
  /** @default false */
  sendDataModel?: boolean;
  notifier: Notifier;
  limits?: DataModelLimits;
  /**
   * The protocol version the surface was created in; its actions and errors go back in that
   * version's shape.
   * @default "v0.9"
   */
  protocolVersion?: string;
  /** Id of the component rendering starts from (v0.8 `beginRendering.root`). @default "root" */
  rootId?: string;
}

/** A live surface. Created and disposed by the `MessageProcessor`; read it, do not mutate it. */
export class Surface {
  readonly surfaceId: string;
  readonly catalog: Catalog;
  readonly theme: Theme | undefined;
  readonly sendDataModel: boolean;
  readonly components: ComponentStore;
  readonly dataModel: DataModel;
  /** The protocol version the surface was created in (`"v0.9"`, `"v0.8"`, …). */
  readonly protocolVersion: string;
  /** Id of the component rendering starts from: `"root"` unless a v0.8 agent named another. */
  readonly rootId: string;
  #disposed = false;
  #reported: Set<string> | undefined;

  constructor(options: SurfaceOptions) {
    this.surfaceId = options.surfaceId;
    this.catalog = options.catalog;
    this.theme = options.theme;
    this.sendDataModel = options.sendDataModel ?? false;
    this.protocolVersion = options.protocolVersion ?? A2UI_VERSION;
    this.rootId = options.rootId ?? ROOT_COMPONENT_ID;
    this.components = new ComponentStore({ notifier: options.notifier });
    this.dataModel = new DataModel({}, { ...options.limits, notifier: options.notifier });
  }

  get catalogId(): string {
    return this.catalog.catalogId;
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  /** Live subscriptions on this surface's components and data model. */
  get subscriptionCount(): number {
    return this.components.subscriptionCount + this.dataModel.subscriptionCount;
  }

  /**
   * Records that the problem `topic` was reported; true the first time only, so that the
   * processor reports each degradation of a surface (an unknown component type, property or
   * function) once, however many messages repeat it.
   */
  claimReport(topic: string): boolean {
    this.#reported ??= new Set();
    if (this.#reported.has(topic)) return false;
    this.#reported.add(topic);
    return true;
  }

  /** The {@link claimReport} topic of an unknown component type. */
  static unknownTypeTopic(type: string): string {
    return `unknown-type:${type}`;
  }

  /** The {@link claimReport} topic of an unknown property of a component type. */
  static unknownPropertyTopic(type: string, property: string): string {
    return `unknown-property:${type}.${property}`;
  }

  /** The {@link claimReport} topic of a call of a function the catalog does not define. */
  static unknownFunctionTopic(name: string): string {
    return `unknown-function:${name}`;
  }

  /** Drops components, data and every subscription (§2.4). */
  dispose(): void {
    this.#disposed = true;
    this.components.dispose();
    this.dataModel.dispose();
  }
}
