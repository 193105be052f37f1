/** The A2UI protocol version every message carries (spec §1: `"version": "v0.9"`). */
export const A2UI_VERSION = 'v0.9' as const;

/** `catalogId` of the v0.9 basic catalog (digest §9). */
export const BASIC_CATALOG_ID = 'https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json';

/** `catalogId` of the v0.9 minimal catalog (digest §10.4). */
export const MINIMAL_CATALOG_ID =
  'https://a2ui.org/specification/v0_9/catalogs/minimal/catalog.json';

/** Id of the component every surface renders from (spec §5.2). */
export const ROOT_COMPONENT_ID = 'root';

/** The only standardised client error code (spec §3.2); every other code uses the generic form. */
export const VALIDATION_FAILED = 'VALIDATION_FAILED' as const;
