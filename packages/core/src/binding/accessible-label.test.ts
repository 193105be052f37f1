import { describe, expect, it } from 'vitest';
import { inferAccessibleLabel, resolveAccessibility } from './accessible-label.js';

describe('resolveAccessibility', () => {
  it('infers the label from visible text: label, then title, then text', () => {
    expect(resolveAccessibility({ component: 'Button', title: 'Submit Form' })).toEqual({
      label: 'Submit Form',
      labelInferred: true,
    });
    expect(inferAccessibleLabel({ label: 'Email', text: 'ignored' })).toBe('Email');
    expect(inferAccessibleLabel({ text: 42 })).toBe('42');
    expect(inferAccessibleLabel({ text: '   ', icon: 'x' })).toBeUndefined();
  });

  it('lets explicit attributes override inferred defaults (the spec example)', () => {
    const props = {
      title: 'Submit',
      accessibility: { label: 'Send Form', description: 'Sends it', live: 'polite', hidden: false },
    };
    expect(resolveAccessibility(props)).toEqual({
      label: 'Send Form',
      description: 'Sends it',
      live: 'polite',
      hidden: false,
      labelInferred: false,
    });
  });

  it('gives no label when nothing visible names the component', () => {
    expect(resolveAccessibility({ component: 'Divider' })).toEqual({ labelInferred: false });
  });

  it('reads a bound number as text, like visible text (a label bound to a count)', () => {
    expect(
      resolveAccessibility({ text: 'x', accessibility: { label: 3, description: 0 } }),
    ).toEqual({
      label: '3',
      description: '0',
      labelInferred: false,
    });
  });
});
