/**
 * One surface (spec §2.1): its catalog, theme, components and data model.
 */
import type { Catalog } from '../catalog/catalog.js';
import { ROOT_COMPONENT_ID } from '../protocol/constants.js';
import type { ComponentInstance, Theme } from '../protocol/messages.js';
import type { ProtocolVersion } from '../versions/protocol-version.js';
import { v09 } from '../versions/v0-9.js';
import { ComponentStore } from './component-store.js';
import { DataModel, type DataModelLimits } from './data-model.js';
import type { Notifier } from './notifier.js';

/** Options of {@link Surface}. */
export interface SurfaceOptions {
  surfaceId: string;
  /** The default catalog (v1.0 may have none: pass an empty catalog and no `defaultCatalogId`). */
  catalog: Catalog;
  /** @default `catalog.catalogId` */
  defaultCatalogId?: string;
  /** The protocol version the surface was created in. @default v0.9 */
  protocolVersion?: ProtocolVersion;
  /** v1.0 `createSurface.metadata`. */
  metadata?: Record<string, unknown>;
  /** The component the surface renders from (v0.8 `beginRendering.root`). @default "root" */
  rootId?: string;
  theme?: Theme;
  /** @default false */
  sendDataModel?: boolean;
  notifier: Notifier;
  limits?: DataModelLimits;
}

/** A live surface. Created and disposed by the `MessageProcessor`; read it, do not mutate it. */
export class Surface {
  readonly surfaceId: string;
  readonly catalog: Catalog;
  /** `createSurface.catalogId`; `undefined` for a v1.0 surface created without one. */
  readonly defaultCatalogId: string | undefined;
  /**
   * The version the surface was created in: messages of another version family are refused, and
   * errors and actions about it are written in its shape.
   */
  readonly protocolVersion: ProtocolVersion;
  /** v1.0 `createSurface.metadata` (`{extensions}`), as sent. */
  readonly metadata: Record<string, unknown> | undefined;
  /** Id of the component the surface renders from: `"root"` except for v0.8 `beginRendering.root`. */
  readonly rootId: string;
  readonly theme: Theme | undefined;
  readonly sendDataModel: boolean;
  readonly components: ComponentStore;
  readonly dataModel: DataModel;
  #disposed = false;
  #reported: Set<string> | undefined;
  /** Catalogs other than the default that components of this surface name (v1.0). */
  #catalogs: Map<string, Catalog> | undefined;

  constructor(options: SurfaceOptions) {
    this.surfaceId = options.surfaceId;
    this.catalog = options.catalog;
    this.defaultCatalogId =
      'defaultCatalogId' in options ? options.defaultCatalogId : options.catalog.catalogId;
    this.protocolVersion = options.protocolVersion ?? v09;
    this.metadata = options.metadata;
    this.rootId = options.rootId ?? ROOT_COMPONENT_ID;
    this.theme = options.theme;
    this.sendDataModel = options.sendDataModel ?? false;
    this.components = new ComponentStore({ notifier: options.notifier });
    this.dataModel = new DataModel({}, { ...options.limits, notifier: options.notifier });
  }

  get catalogId(): string {
    return this.catalog.catalogId;
  }

  /**
   * The catalog a component uses: the one its own `catalogId` names (v1.0 mixed catalogs), else
   * the surface's default.
   */
  catalogFor(component: Readonly<ComponentInstance>): Catalog {
    const own = component.catalogId;
    return (typeof own === 'string' && this.#catalogs?.get(own)) || this.catalog;
  }

  /** Every catalog in use: the default first, then those components named (v1.0). */
  get catalogs(): readonly Catalog[] {
    return this.#catalogs ? [this.catalog, ...this.#catalogs.values()] : [this.catalog];
  }

  /** Records a further catalog a component of this surface names. Called by the processor. */
  useCatalog(catalog: Catalog): void {
    if (catalog === this.catalog) return;
    this.#catalogs ??= new Map();
    this.#catalogs.set(catalog.catalogId, catalog);
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
