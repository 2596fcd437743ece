import { Text } from '@mantine/core';
import { PageHeader } from '../../../components/page-header.tsx';

/**
 * The home screen (part 1 §2 Dashboard). Its two widgets, Low Stock Products and Active
 * Subscribers, come with a later issue; until then the screen says so instead of showing made-up data.
 */
export function Dashboard() {
  return (
    <>
      <PageHeader title="Dashboard" />
      <Text c="dimmed">
        The dashboard widgets (low stock products and active subscribers) are coming soon.
      </Text>
    </>
  );
}
