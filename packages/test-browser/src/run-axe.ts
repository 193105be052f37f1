/**
 * Runs axe-core (the engine behind Lighthouse's accessibility audit) inside a page.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** One rule axe found broken, with up to {@link RunAxeOptions.maxNodes} offending elements. */
export interface AxeViolation {
  /** Rule id, e.g. `color-contrast`. */
  readonly id: string;
  readonly impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  readonly help: string;
  readonly nodes: ReadonlyArray<{
    readonly target: unknown;
    /** The element's HTML, cut to 200 characters. */
    readonly html: string;
    /** What axe says is wrong with this element (contrast ratios and colours, for example). */
    readonly summary: string;
  }>;
}

/** Options of {@link runAxe}. */
export interface RunAxeOptions {
  /** CSS selector of the part of the page to check. @default the whole document */
  include?: string;
  /**
   * Rule tags to run, e.g. `['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']` for WCAG 2.1 AA.
   * @default every rule axe runs by default
   */
  tags?: readonly string[];
  /** Violations of these impacts are returned; others are dropped. @default all impacts */
  impacts?: ReadonlyArray<NonNullable<AxeViolation['impact']>>;
  /** Offending elements listed per violation. @default 5 */
  maxNodes?: number;
}

/** The WCAG 2.1 level A and AA rule tags of axe-core. */
export const WCAG21_AA_TAGS: readonly string[] = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

let axeSource: Promise<string> | undefined;

/**
 * Injects axe-core into `page` (once per document) and returns the violations it finds.
 *
 * @example
 * ```ts
 * expect(await runAxe(page, { tags: WCAG21_AA_TAGS })).toEqual([]);
 * ```
 */
export async function runAxe(page: Page, options: RunAxeOptions = {}): Promise<AxeViolation[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in window)))
    await page.addScriptTag({ content: await axeSource });
  const violations = await page.evaluate(
    async ({ include, tags, maxNodes }) => {
      interface Result {
        violations: Array<{
          id: string;
          impact: AxeViolation['impact'];
          help: string;
          nodes: Array<{ target: unknown; html: string; failureSummary?: string }>;
        }>;
      }
      const axe = (
        window as unknown as { axe: { run(context: unknown, options: unknown): Promise<Result> } }
      ).axe;
      const result = await axe.run(include ? { include: [include] } : document, {
        resultTypes: ['violations'],
        ...(tags ? { runOnly: { type: 'tag', values: tags } } : {}),
      });
      return result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        nodes: violation.nodes.slice(0, maxNodes).map((node) => ({
          target: node.target,
          html: node.html.slice(0, 200),
          summary: node.failureSummary ?? '',
        })),
      }));
    },
    { include: options.include, tags: options.tags, maxNodes: options.maxNodes ?? 5 },
  );
  const impacts = options.impacts;
  return impacts
    ? violations.filter(
        (violation) => violation.impact !== null && impacts.includes(violation.impact),
      )
    : violations;
}
