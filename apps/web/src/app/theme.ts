import { type CSSVariablesResolver, createTheme } from '@mantine/core';

/**
 * Mantine theme of the back office (part 1 §1: an internal staff tool; plain blue on white).
 * Shade 8 of blue, so that white text on buttons and blue links on white reach the 4.5:1 contrast
 * of WCAG 2 AA (Mantine's default shade 6 gives 3.5:1).
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'sm',
});

/**
 * Dimmed text (gray 7) and error text (red 9) dark enough for 4.5:1 on white (WCAG 2 AA); Mantine's
 * defaults, gray 6 and red 6, give 3.3:1.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
  },
  dark: {},
});
