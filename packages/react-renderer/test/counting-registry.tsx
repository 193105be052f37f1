/**
 * A registry whose every built-in component counts its renders, to prove which components a
 * change re-renders.
 */
import { BASIC_CATALOG_ID } from '@a2ui-ts/core';
import {
  type A2uiComponentProps,
  BASIC_COMPONENTS,
  createComponentRegistry,
} from '../src/index.js';

export function createCountingRegistry() {
  const renders: string[] = [];
  const registry = createComponentRegistry({ builtins: false });
  for (const [type, Implementation] of Object.entries(BASIC_COMPONENTS)) {
    // biome-ignore lint/correctness/noComponentHookFactories: a counting wrapper per built-in type is the point.
    const Counted = (props: A2uiComponentProps) => {
      renders.push(props.node.scope === '/' ? props.id : `${props.id}@${props.node.scope}`);
      return <Implementation {...props} />;
    };
    registry.register(BASIC_CATALOG_ID, type, Counted);
  }
  return {
    registry,
    renders,
    /** Renders since the last call. */
    take(): string[] {
      return renders.splice(0, renders.length);
    },
  };
}
