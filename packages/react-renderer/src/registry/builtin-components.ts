/**
 * Which implementations are the renderer's own: those render without a per-component error
 * boundary (they handle any agent input), custom ones inside one.
 */
import type { A2uiComponent } from './a2ui-component.js';

const builtins = new WeakSet<A2uiComponent>();

/** Marks built-in implementations, which render without a per-component error boundary. */
export function markBuiltin<T extends A2uiComponent>(component: T): T {
  builtins.add(component);
  return component;
}

/** True for an implementation passed to {@link markBuiltin}. */
export function isBuiltin(component: A2uiComponent): boolean {
  return builtins.has(component);
}
