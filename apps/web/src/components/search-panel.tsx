import { Box, Burger, Button, Collapse, Group, Paper } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';

/** Part 2 §2.1, §2.4, §2.5, §9: the filter panel slides in and out in 400 ms. */
export const SEARCH_PANEL_SLIDE_MS = 400;

/** Props of {@link SearchPanel}. */
export type SearchPanelProps = {
  /** Whether the panel is slid in (shown). The screen keeps this state, toggled by {@link SearchPanelToggle}. */
  opened: boolean;
  /** Runs the search: the Search button, and Enter in any text field of the panel. */
  onSearch: () => void;
  /** Empties the fields (and the stored filters); the Clear button shows only when this is given. */
  onClear?: () => void;
  /** While true the Search button shows a spinner (a search is running). */
  searching?: boolean;
  /** Accessible name of the search form. Default "Search filters". */
  label?: string;
  /** Extra buttons shown left of Clear and Search. */
  extraActions?: ReactNode;
  /** The filter fields, laid out by the caller (e.g. in a SimpleGrid). */
  children: ReactNode;
};

/**
 * The sliding filter panel of the search screens (part 2 §2.1 Subscribers, §2.4 Donations, §2.5 Sales):
 * a form that slides in or out in 400 ms, with Clear and Search buttons. Enter in a text field submits
 * it (a native form submit), so it runs the search without a click. The fields keep their state
 * while the panel is slid out.
 */
export function SearchPanel({
  opened,
  onSearch,
  onClear,
  searching = false,
  label = 'Search filters',
  extraActions,
  children,
}: SearchPanelProps) {
  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSearch();
  };
  return (
    <Collapse expanded={opened} transitionDuration={SEARCH_PANEL_SLIDE_MS}>
      <Paper withBorder radius="md" p="md" mb="md">
        {/* biome-ignore lint/a11y/useSemanticElements: <search> is not known to every browser and test DOM yet */}
        <form role="search" aria-label={label} onSubmit={handleSubmit} noValidate>
          <Box>{children}</Box>
          <Group justify="flex-end" gap="sm" mt="md">
            {extraActions}
            {onClear ? (
              <Button variant="default" onClick={onClear}>
                Clear
              </Button>
            ) : null}
            <Button type="submit" loading={searching}>
              Search
            </Button>
          </Group>
        </form>
      </Paper>
    </Collapse>
  );
}

/** Props of {@link SearchPanelToggle}. */
export type SearchPanelToggleProps = {
  opened: boolean;
  onToggle: () => void;
  /** Accessible name. Default "Show or hide the search filters". */
  label?: string;
};

/** The hamburger button that slides the {@link SearchPanel} in or out (part 2 §2.1, §2.4, §2.5). */
export function SearchPanelToggle({
  opened,
  onToggle,
  label = 'Show or hide the search filters',
}: SearchPanelToggleProps) {
  return (
    <Burger
      opened={opened}
      onClick={onToggle}
      aria-label={label}
      aria-expanded={opened}
      size="sm"
      transitionDuration={SEARCH_PANEL_SLIDE_MS}
    />
  );
}
