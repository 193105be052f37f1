/**
 * How HTTP bindings (SSE + JSON-RPC, REST) read the A2UI versions a client offers: the
 * `a2uiVersions` query parameter (what an `EventSource`, which cannot set headers, uses) or the
 * `A2UI-Versions` header, each a comma-separated list (`v1.0,v0.9`). The server answers with the
 * chosen version in its `connected` event / response (`a2uiVersion`). `docs/wire-formats.md`.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { parseWireVersionList } from '../versions/wire-versions.js';

/** The query parameter of an offer: `?a2uiVersions=v1.0,v0.9`. */
export const A2UI_VERSIONS_QUERY = 'a2uiVersions';

/** The header of an offer: `A2UI-Versions: v1.0, v0.9`. */
export const A2UI_VERSIONS_HEADER = 'A2UI-Versions';

/**
 * The versions `request` offers, in the client's order, or `undefined` when it offers none (a
 * client older than negotiation, served as before). The query parameter is read first; a request
 * that carries both must carry the same list in each.
 *
 * @throws A2uiError `VALIDATION_FAILED` (HTTP 400, `data.field: 'a2uiVersions'`) for an empty or
 *   malformed list, or a query parameter and a header that disagree
 *
 * @example
 * ```ts
 * readOfferedVersions(new Request('https://x/a2ui/sse?a2uiVersions=v1.0,v0.9')); // ['v1.0', 'v0.9']
 * ```
 */
export function readOfferedVersions(request: Request): string[] | undefined {
  const query = new URL(request.url).searchParams.getAll(A2UI_VERSIONS_QUERY);
  const header = request.headers.get(A2UI_VERSIONS_HEADER);
  if (query.length > 1)
    throw new A2uiError('VALIDATION_FAILED', `Give ${A2UI_VERSIONS_QUERY} once, comma-separated.`, {
      data: { field: 'a2uiVersions' },
    });
  const fromQuery = query[0] === undefined ? undefined : parseWireVersionList(query[0]);
  const fromHeader = header === null ? undefined : parseWireVersionList(header);
  if (fromQuery && fromHeader && fromQuery.join(',') !== fromHeader.join(','))
    throw new A2uiError(
      'VALIDATION_FAILED',
      `The ${A2UI_VERSIONS_QUERY} query parameter and the ${A2UI_VERSIONS_HEADER} header disagree.`,
      { data: { field: 'a2uiVersions' } },
    );
  return fromQuery ?? fromHeader;
}
