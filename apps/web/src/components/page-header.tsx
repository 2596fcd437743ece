import { Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';

type PageHeaderProps = {
  title: string;
  /** Buttons shown at the right of the heading, e.g. "Add New User". */
  actions?: ReactNode;
};

/** The heading row of a signed-in screen (part 1 §2: every screen has a heading). */
export function PageHeader({ title, actions }: PageHeaderProps) {
  return (
    <Group justify="space-between" align="center" mb="lg" wrap="wrap">
      <Title order={1} size="h2">
        {title}
      </Title>
      {actions ? <Group gap="sm">{actions}</Group> : null}
    </Group>
  );
}
