import { createTheme } from '@mantine/core';

/** Mantine theme of the back office (part 1 §1: an internal staff tool; plain blue on white). */
export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'sm',
});
