import { Container, Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

type FormPageProps = {
  title: string;
  children: ReactNode;
};

/** A narrow card with a page heading, for the sign-in and password screens (part 1 §2). */
export function FormPage({ title, children }: FormPageProps) {
  return (
    <Container size={460} py="xl">
      <Paper withBorder shadow="sm" radius="md" p="xl">
        <Stack gap="md">
          <Title order={1} size="h2">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Container>
  );
}
