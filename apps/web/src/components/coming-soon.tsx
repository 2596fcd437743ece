import { Text } from '@mantine/core';
import { PageHeader } from './page-header.tsx';

/** A screen of the route table that is not built yet: its heading and one honest line (part 1 §2). */
export function ComingSoon({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Text c="dimmed">This screen is coming soon.</Text>
    </>
  );
}
