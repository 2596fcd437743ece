import { type CSSVariablesResolver, createTheme, darken, luminance, type MantineTheme } from '@mantine/core';
import { frenchOptionsFilter } from '../lib/french-text.ts';

/**
 * Mantine theme of the back office (part 1 §1: an internal staff tool; plain blue on white).
 * Shade 8 of blue, so that white text on buttons and blue links on white reach the 4.5:1 contrast
 * of WCAG 2 AA (Mantine's default shade 6 gives 3.5:1).
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'sm',
  components: {
    // Searchable pickers find `Émile` from `emile` (part 2 §2.1): one filter for all of them.
    Select: { defaultProps: { filter: frenchOptionsFilter } },
    MultiSelect: { defaultProps: { filter: frenchOptionsFilter } },
    Autocomplete: { defaultProps: { filter: frenchOptionsFilter } },
    // A spinner with an accessible name ("Loading...") needs a role that may carry one (WCAG 4.1.2).
    Loader: { defaultProps: { role: 'status' } },
    // A menu may only hold menu items: Mantine's focus placeholder (role presentation) breaks the
    // menu role. Without it, opening a menu focuses its first item (the WAI-ARIA menu button pattern).
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // Components are named, not imported: the login screen's code stays within its budget.
    DateInput: {
      defaultProps: {
        // The calendar's arrows are icons: they need a name (WCAG 4.1.2).
        ariaLabels: {
          previousMonth: 'Previous month',
          nextMonth: 'Next month',
          previousYear: 'Previous year',
          nextYear: 'Next year',
          previousDecade: 'Previous decade',
          nextDecade: 'Next decade',
        },
        // Weekends in Mantine's red 6 read at 3.3:1 on white: days are all shown alike.
        weekendDays: [],
      },
    },
  },
});

/** WCAG 2 AA contrast for normal text. */
const AA_CONTRAST = 4.5;
const WHITE = '#ffffff';

/** The WCAG contrast ratio of two colours (1 to 21). */
export function contrastRatio(first: string, second: string): number {
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `color`, darkened in small steps until it reaches 4.5:1 on `background` (unchanged if it does already). */
export function readableOn(color: string, background: string): string {
  let result = color;
  for (let amount = 0.05; contrastRatio(result, background) < AA_CONTRAST && amount < 1; amount += 0.05) {
    result = darken(color, amount);
  }
  return result;
}

/**
 * Every colour of the palette made AA-readable where Mantine's defaults fall short (orange, yellow,
 * green, teal, cyan...): the text of light variants (shade 9 on shade 1, hovered shade 2), coloured
 * text and outlines (shade 8 on white), and the background of filled variants under white text.
 */
function readableColorVariables(mantineTheme: MantineTheme): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, shades] of Object.entries(mantineTheme.colors)) {
    const [, , lightHover, , , , , , primary, darkest] = shades;
    if (!lightHover || !primary || !darkest) continue;
    variables[`--mantine-color-${name}-light-color`] = readableOn(darkest, lightHover);
    const onWhite = readableOn(primary, WHITE);
    if (onWhite === primary) continue;
    variables[`--mantine-color-${name}-text`] = onWhite;
    variables[`--mantine-color-${name}-outline`] = onWhite;
    variables[`--mantine-color-${name}-filled`] = onWhite;
    variables[`--mantine-color-${name}-filled-hover`] = darken(onWhite, 0.1);
  }
  return variables;
}

/**
 * Light colour scheme made AA-readable (4.5:1, WCAG 2 AA) at the source rather than screen by screen:
 * dimmed text (gray 7) and error text (red 9), placeholders (gray 7; Mantine's gray 5 gives 2.1:1),
 * and the palette's light, outline and filled variants (see {@link readableColorVariables}).
 */
export const cssVariablesResolver: CSSVariablesResolver = (mantineTheme) => ({
  variables: {},
  light: {
    ...readableColorVariables(mantineTheme),
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-placeholder': 'var(--mantine-color-gray-7)',
  },
  dark: {},
});
