/**
 * A2UI v0.8 wire types, mirroring `specification/v0_8/json/server_to_client.json`,
 * `client_to_server.json` and `standard_catalog_definition.json` (v0.8.2). v0.8 messages carry no
 * `version`: a message is v0.8 by its key (`beginRendering`, `surfaceUpdate`, …).
 */
import { isRecord } from '../../protocol/guards.js';

/** The version label this project uses for v0.8 (the wire has none). */
export const V08_VERSION = 'v0.8' as const;

/** Default catalog of a v0.8 surface whose `beginRendering` names none (v0.8 §2.1). */
export const V08_STANDARD_CATALOG_ID =
  'https://a2ui.org/specification/v0_8/standard_catalog_definition.json';

/**
 * `BoundValue` (v0.8 §4.2): a literal, a data-model `path`, or both (initialise the path with the
 * literal, then bind to it).
 */
export interface V08BoundValue {
  path?: string;
  literalString?: string;
  literalNumber?: number;
  literalBoolean?: boolean;
  literalArray?: string[];
}

/** One `dataModelUpdate.contents` entry: a key and exactly one typed `value*` (v0.8 §4.1). */
export interface V08DataEntry {
  key: string;
  valueString?: string;
  valueNumber?: number;
  valueBoolean?: boolean;
  /** A nested map as an adjacency list. */
  valueMap?: V08DataEntry[];
}

/** A component: its id, optional flex `weight`, and `{"<Type>": {…properties}}` (v0.8 §2.3). */
export interface V08Component {
  id: string;
  weight?: number;
  component: Record<string, Record<string, unknown>>;
}

export interface V08BeginRendering {
  surfaceId: string;
  root: string;
  /** @default {@link V08_STANDARD_CATALOG_ID} */
  catalogId?: string;
  styles?: Record<string, unknown>;
}
export interface V08SurfaceUpdate {
  surfaceId: string;
  components: V08Component[];
}
export interface V08DataModelUpdate {
  surfaceId: string;
  /** Omitted or `"/"` = the whole data model; may lack the leading `/` (`"user"`). */
  path?: string;
  contents: V08DataEntry[];
}
export interface V08DeleteSurface {
  surfaceId: string;
}

/** One of the four v0.8 server→client messages. */
export type V08ServerMessage =
  | { beginRendering: V08BeginRendering }
  | { surfaceUpdate: V08SurfaceUpdate }
  | { dataModelUpdate: V08DataModelUpdate }
  | { deleteSurface: V08DeleteSurface };

/** The message key of a v0.8 server message. */
export type V08ServerMessageKind =
  | 'beginRendering'
  | 'surfaceUpdate'
  | 'dataModelUpdate'
  | 'deleteSurface';

export const V08_SERVER_MESSAGE_KINDS: readonly V08ServerMessageKind[] = [
  'beginRendering',
  'surfaceUpdate',
  'dataModelUpdate',
  'deleteSurface',
];

/** v0.8 `userAction` (v0.8 §5.2). */
export interface V08UserAction {
  name: string;
  surfaceId: string;
  sourceComponentId: string;
  /** ISO 8601 date-time. */
  timestamp: string;
  context: Record<string, unknown>;
}

/** One of the two v0.8 client→server messages (v0.8 §5.1); `error`'s content is free-form. */
export type V08ClientMessage = { userAction: V08UserAction } | { error: Record<string, unknown> };

/**
 * The v0.8 message key of `message`, or `undefined` when it is not a v0.8 server message: it must
 * carry one v0.8 key and no `version` (or the label `"v0.8"`, which some agents add).
 */
export function getV08MessageKind(message: unknown): V08ServerMessageKind | undefined {
  if (!isRecord(message)) return undefined;
  if (message.version !== undefined && message.version !== V08_VERSION) return undefined;
  for (const kind of V08_SERVER_MESSAGE_KINDS) if (kind in message) return kind;
  return undefined;
}

/** True for a v0.8 server message by its key (see {@link getV08MessageKind}). */
export function isV08ServerMessage(message: unknown): message is V08ServerMessage {
  return getV08MessageKind(message) !== undefined;
}
