/**
 * A jsdom window installed as the global environment, before React is imported, so both
 * renderers run against the same DOM implementation in Node.
 */
import { JSDOM } from 'jsdom';

/** Installs jsdom's window globals that React DOM and the renderers use. */
export function installDom(): JSDOM {
  const dom = new JSDOM('<!doctype html><html><head></head><body></body></html>', {
    pretendToBeVisual: true,
    url: 'http://127.0.0.1/',
  });
  const { window } = dom;
  const globals = globalThis as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(window)) {
    if (key in globals) continue;
    try {
      globals[key] = (window as unknown as Record<string, unknown>)[key];
    } catch {
      // Some accessors throw outside their window; React does not need them.
    }
  }
  globals.window = window;
  globals.document = window.document;
  globals.navigator = window.navigator;
  globals.IS_REACT_ACT_ENVIRONMENT = false;
  return dom;
}
