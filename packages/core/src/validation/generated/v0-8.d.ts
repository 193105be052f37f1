import type { StandaloneValidateFunction } from '../catalog-validator.js';
type Schema = { readonly [keyword: string]: unknown };
/** Validates a v0.8 server→client message, components of any catalog (`server_to_client.json`). */
export declare const serverMessage: StandaloneValidateFunction;
/** Validates a v0.8 server→client message against the v0.8 standard catalog. */
export declare const standardServerMessage: StandaloneValidateFunction;
/** Validates a v0.8 client→server message (`client_to_server.json`). */
export declare const clientMessage: StandaloneValidateFunction;
/** The schemas, annotations stripped, used to word validation issues. */
export declare const schemas: { readonly serverToClient: Schema; readonly standardServerToClient: Schema };
