import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { contrastRatio, cssVariablesResolver, readableOn, theme } from './theme.ts';

const mantineTheme = mergeMantineTheme(DEFAULT_THEME, theme);
const light = cssVariablesResolver(mantineTheme).light;

describe('theme contrast (WCAG 2 AA)', () => {
  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // Mantine's orange 9 on orange 1: the light badge that failed.
    expect(contrastRatio('#d9480f', '#ffe8cc')).toBeCloseTo(3.61, 1);
  });

  it('darkens a colour only as much as 4.5:1 needs', () => {
    expect(readableOn('#1971c2', '#ffffff')).toBe('#1971c2');
    const orange = readableOn('#d9480f', '#ffe8cc');
    expect(contrastRatio(orange, '#ffe8cc')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(orange, '#ffe8cc')).toBeLessThan(6);
  });

  it('gives every colour light-variant text readable on its hovered light background', () => {
    for (const [name, shades] of Object.entries(mantineTheme.colors)) {
      const color = light[`--mantine-color-${name}-light-color`];
      expect(color, name).toBeDefined();
      expect(contrastRatio(color ?? '', shades[2]), name).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('gives coloured text, outlines and filled backgrounds 4.5:1 against white', () => {
    for (const [name, shades] of Object.entries(mantineTheme.colors)) {
      const text = light[`--mantine-color-${name}-text`] ?? shades[8];
      const filled = light[`--mantine-color-${name}-filled`] ?? shades[8];
      expect(contrastRatio(text, '#ffffff'), name).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(filled, '#ffffff'), name).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('makes dimmed text and placeholders gray 7', () => {
    expect(light['--mantine-color-dimmed']).toBe('var(--mantine-color-gray-7)');
    expect(light['--mantine-color-placeholder']).toBe('var(--mantine-color-gray-7)');
  });
});
