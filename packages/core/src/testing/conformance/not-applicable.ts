/**
 * The one table of suite cases this engine does not run, each with its reason. It should stay
 * almost empty: a case whose feature is merely missing is a failure, never an entry here.
 */

/** Why a case does not apply to a TypeScript engine (or is run by another issue). */
export interface NotApplicableCase {
  /** The suite file, relative to the suite root. */
  readonly file: string;
  readonly reason: string;
}

const A2A_BINDING =
  'run by @a2ui-ts/transport-a2a (src/extensions-conformance.test.ts) against its A2A binding, not by core';
const ADK =
  'ADK-specific: converts Google ADK runner events and runs the ADK A2UI toolset; this engine has no ADK integration (its A2A binding is the equivalent, run by extensions/a2a)';

/** Cases not run, by case name. */
export const NOT_APPLICABLE_CASES: Readonly<Record<string, NotApplicableCase>> = {
  test_create_a2ui_part: { file: 'extensions/a2a/a2a_integration.yaml', reason: A2A_BINDING },
  test_create_a2ui_part_legacy_default: {
    file: 'extensions/a2a/a2a_integration.yaml',
    reason: A2A_BINDING,
  },
  test_is_a2ui_part: { file: 'extensions/a2a/a2a_integration.yaml', reason: A2A_BINDING },
  test_try_activate_extension_success: {
    file: 'extensions/a2a/a2a_integration.yaml',
    reason: A2A_BINDING,
  },
  test_try_activate_extension_failure: {
    file: 'extensions/a2a/a2a_integration.yaml',
    reason: A2A_BINDING,
  },
  test_handler_replaces_smart_quotes: {
    file: 'extensions/a2a/a2a_integration.yaml',
    reason: A2A_BINDING,
  },
  test_handler_passes_regular_text: {
    file: 'extensions/a2a/a2a_integration.yaml',
    reason: A2A_BINDING,
  },
  test_handler_gracefully_handles_invalid_json: {
    file: 'extensions/a2a/a2a_integration.yaml',
    reason: A2A_BINDING,
  },
  test_get_extension_minimal: { file: 'extensions/a2a/a2a_integration.yaml', reason: A2A_BINDING },
  test_get_extension_with_inline: {
    file: 'extensions/a2a/a2a_integration.yaml',
    reason: A2A_BINDING,
  },
  test_get_extension_with_catalogs: {
    file: 'extensions/a2a/a2a_integration.yaml',
    reason: A2A_BINDING,
  },
  test_try_activate_success: { file: 'extensions/a2a/a2a_integration.yaml', reason: A2A_BINDING },
  test_try_activate_not_requested: {
    file: 'extensions/a2a/a2a_integration.yaml',
    reason: A2A_BINDING,
  },
  test_select_newest: { file: 'extensions/a2a/a2a_integration.yaml', reason: A2A_BINDING },
  test_converter_emits_failed_event: {
    file: 'extensions/adk/adk_extensions.yaml',
    reason: ADK,
  },
  test_converter_emits_working_event: {
    file: 'extensions/adk/adk_extensions.yaml',
    reason: ADK,
  },
  test_converter_returns_empty_when_no_catalog: {
    file: 'extensions/adk/adk_extensions.yaml',
    reason: ADK,
  },
  test_toolset_execute_valid_payload: {
    file: 'extensions/adk/adk_extensions.yaml',
    reason: ADK,
  },
  test_toolset_execute_invalid_payload: {
    file: 'extensions/adk/adk_extensions.yaml',
    reason: ADK,
  },
};
