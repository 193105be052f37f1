/**
 * ChildList expansion (digest §5.2, §7.4): static ids keep the parent's scope; a template is
 * instantiated once per element of the bound array with scope `<list path>/<index>`.
 */
import { A2uiError } from '../errors/a2ui-error.js';
import { isChildTemplate, isRecord } from '../protocol/guards.js';
import { encodeSegment } from '../state/json-pointer.js';
import type { DataContext } from './data-context.js';

/** One child to render: a component id and the data scope it renders in. */
export interface ChildReference {
  readonly id: string;
  /** Absolute pointer of the child's data scope. */
  readonly scope: string;
  /** Stable key among siblings (React `key`). */
  readonly key: string;
  /**
   * Index of the template item the child renders in (read by v1.0 `@index`): its own index for a
   * template instance, the parent's for a static child; `undefined` outside any template.
   */
  readonly templateIndex?: number;
}

/** Options of {@link expandChildList}. */
export interface ExpandChildListOptions {
  /**
   * Most template instances rendered for one ChildList; the rest are dropped and
   * `LIMIT_EXCEEDED` is reported once.
   * @default 5000
   */
  maxTemplateItems?: number;
  /** Receives the absolute pointer of the template's array path. */
  dependencies?: Set<string>;
}

export const DEFAULT_MAX_TEMPLATE_ITEMS = 5000;

/**
 * Expands `children` in `context`. Anything that is not a string array or a template gives `[]`;
 * a template over a non-array value gives `[]` (§7.4: objects are not iterated) — except on a
 * host that iterates objects (v0.8 surfaces), where each own key of an object is one item.
 */
export function expandChildList(
  children: unknown,
  context: DataContext,
  options: ExpandChildListOptions = {},
): ChildReference[] {
  if (Array.isArray(children)) {
    const out: ChildReference[] = [];
    const seen = new Map<string, number>();
    for (const id of children) {
      if (typeof id !== 'string') continue;
      // Duplicate ids are legal in a static list; keep React keys unique.
      const count = seen.get(id) ?? 0;
      seen.set(id, count + 1);
      const key = count === 0 ? id : `${id}#${count}`;
      out.push(
        context.templateIndex === undefined
          ? { id, scope: context.scope, key }
          : { id, scope: context.scope, key, templateIndex: context.templateIndex },
      );
    }
    return out;
  }
  if (!isChildTemplate(children)) return [];
  let listPath: string;
  try {
    listPath = context.resolvePath(children.path);
  } catch (error) {
    context.host.reportError(error as A2uiError);
    return [];
  }
  options.dependencies?.add(listPath);
  const items = context.host.dataModel.get(listPath);
  const keys = templateKeys(items, context.host.templatesIterateObjects === true);
  if (keys === undefined) return [];
  const length = typeof keys === 'number' ? keys : keys.length;
  const max = options.maxTemplateItems ?? DEFAULT_MAX_TEMPLATE_ITEMS;
  if (length > max) {
    context.host.reportError(
      new A2uiError(
        'LIMIT_EXCEEDED',
        `Template "${children.componentId}" over ${listPath} has ${length} items; only the first ${max} are rendered.`,
        {
          path: listPath,
        },
      ),
    );
  }
  const count = Math.min(length, max);
  const prefix = listPath === '/' ? '' : listPath;
  const out: ChildReference[] = new Array(count);
  for (let index = 0; index < count; index++) {
    const key = typeof keys === 'number' ? String(index) : keys[index]!;
    out[index] = {
      id: children.componentId,
      scope: `${prefix}/${encodeSegment(key)}`,
      key: `${children.componentId}@${key}`,
      templateIndex: index,
    };
  }
  return out;
}

/**
 * What a template iterates over `items`: an array's length (its indexes), an object's own keys in
 * key order when `objects` (v0.8 maps: `"0"`, `"1"`, … come first and in numeric order, so an
 * index-keyed map renders exactly like the array it stands for), else `undefined`.
 */
export function templateKeys(
  items: unknown,
  objects: boolean,
): number | readonly string[] | undefined {
  if (Array.isArray(items)) return items.length;
  if (objects && isRecord(items)) return Object.keys(items);
  return undefined;
}
