import { Paper, Text } from '@mantine/core';

/** The message of a loaded empty list, e.g. "No users exist!" (part 1 §2, §4: only once loaded). */
export function EmptyState({ message }: { message: string }) {
  return (
    <Paper withBorder p="lg" radius="md">
      <Text ta="center" c="dimmed">
        {message}
      </Text>
    </Paper>
  );
}
