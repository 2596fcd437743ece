import { Group, Text } from '@mantine/core';
import { organisationYear } from '../../lib/calendar.ts';

/** The footer (part 1 §2 Navigation bar): a copyright mark, the year and the app version. */
export function AppFooter() {
  const year = organisationYear();
  return (
    <Group h="100%" px="md" justify="center">
      <Text size="sm" c="dimmed">
        © {year} Back Office · version {__APP_VERSION__}
      </Text>
    </Group>
  );
}
