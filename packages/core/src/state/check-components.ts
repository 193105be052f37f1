/**
 * Catalog validation of the components of an `updateComponents` / `createSurface` message, each
 * against the catalog it resolved to, with the graceful degradation of ARCHITECTURE §2: an
 * unknown type is kept (the renderer shows a fallback), unknown properties are dropped, calls of
 * unknown functions are kept; each is reported once per surface. Anything else rejects the
 * message. Every version goes through it: v0.9's processor path and the non-native (v1.0, v0.8)
 * applier alike.
 */

import type { Catalog } from '../catalog/catalog.js';
import { VALIDATION_FAILED } from '../protocol/constants.js';
import { isRecord } from '../protocol/guards.js';
import type { ClientError, ComponentInstance } from '../protocol/messages.js';
import { encodeSegment } from './json-pointer.js';
import { MessageFailure } from './message-failure.js';
import { componentValidationMessage, missingTypeMessage } from './spec-wording.js';
import { Surface } from './surface.js';

/** `#apply` checked the whole message's nesting and numbers before any validator runs. */
const JSON_CHECKED = Object.freeze({ jsonChecked: true });

/** Options of {@link checkComponents}. */
export interface CheckComponentsOptions {
  readonly surface: Surface;
  /** The catalog of each component, index for index. */
  readonly catalogs: readonly Catalog[];
  /** Pointer of the components array in the original message. */
  readonly path: string;
  /** Reports a degradation (the component still applies). */
  readonly report: (error: ClientError) => void;
}

function reportOnce(
  options: CheckComponentsOptions,
  topic: string,
  path: string,
  message: string,
): void {
  if (!options.surface.claimReport(topic)) return;
  options.report({ code: VALIDATION_FAILED, surfaceId: options.surface.surfaceId, path, message });
}

/**
 * The components to apply (sanitized where properties were dropped).
 * @throws MessageFailure on the first component that cannot apply
 */
export function checkComponents(
  components: readonly ComponentInstance[],
  options: CheckComponentsOptions,
): ComponentInstance[] {
  const { surface } = options;
  return components.map((component, index) => {
    const path = `${options.path}/${index}`;
    const catalog = options.catalogs[index]!;
    // A non-object is left to the validator's wording (v1.0 and v0.8 readers refuse it earlier).
    if (isRecord(component) && typeof component.component !== 'string') {
      throw MessageFailure.validation(
        surface.surfaceId,
        `${path}/component`,
        missingTypeMessage(component.id),
      );
    }
    const validator = catalog.validator;
    if (!validator) return component;
    const check = validator.checkComponent(component, JSON_CHECKED);
    switch (check.status) {
      case 'valid':
        return component;
      case 'unknown-type':
        reportOnce(
          options,
          Surface.unknownTypeTopic(component.component),
          `${path}/component`,
          `Unknown component type "${component.component}" in catalog ${catalog.catalogId}; it is rendered as a fallback.`,
        );
        return component;
      case 'unknown-properties':
      case 'unknown-functions':
        for (const property of check.properties) {
          reportOnce(
            options,
            Surface.unknownPropertyTopic(component.component, property),
            `${path}/${encodeSegment(property)}`,
            `Unknown property "${property}" on ${component.component}; it was ignored.`,
          );
        }
        if (check.status === 'unknown-functions') {
          for (const call of check.functions) {
            reportOnce(
              options,
              Surface.unknownFunctionTopic(call.name),
              path + call.path,
              `Unknown function "${call.name}" in catalog ${catalog.catalogId}; the component was applied, the call evaluates to nothing and an action calling it cannot run.`,
            );
          }
        }
        return check.sanitized as ComponentInstance;
      default: {
        const first = check.issues[0];
        throw MessageFailure.validation(
          surface.surfaceId,
          first ? path + first.path : path,
          componentValidationMessage(
            component.component,
            component.id,
            first?.message ?? 'Invalid component.',
          ),
        );
      }
    }
  });
}
