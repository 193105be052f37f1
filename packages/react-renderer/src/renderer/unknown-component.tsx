/**
 * The visible fallback for a component type this client cannot render (digest §5.3, §10.1):
 * never a crash, never silence (a2ui-project/a2ui#825).
 */
import type { A2uiComponentProps } from '../registry/a2ui-component.js';

/**
 * Shows "Unknown component: <type>" and still renders the children it references through
 * `child` or `children`, so the rest of the tree stays visible ("render the best way possible",
 * §5.2).
 */
export function UnknownComponent({
  id,
  type,
  props,
  node,
}: A2uiComponentProps<{ child?: unknown; children?: unknown }>) {
  return (
    <div className="a2ui-fallback" role="note" data-a2ui-id={id} data-a2ui-unknown={type}>
      <span className="a2ui-fallback-label">{node.strings.unknownComponent(type)}</span>
      {node.renderChild(props.child)}
      {node.renderChildren(props.children)}
    </div>
  );
}
