import { Anchor, Center, Container, Loader, Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { Link, useRouteError } from 'react-router';
import { paths } from '../../config/paths.ts';

/** Shown while the first screen's code and route guard load (part 1 §2 Screens and routes). */
export function PageLoader() {
  return (
    <Center mih="60vh">
      <Loader aria-label="Loading" />
    </Center>
  );
}

/**
 * Shown when a screen fails to render or its code cannot be loaded; details go to the log only
 * (part 1 §8: server error details are only logged, never shown).
 */
export function RouteErrorBoundary() {
  const error = useRouteError();
  useEffect(() => {
    console.warn('[router] screen failed', error);
  }, [error]);
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1} size="h2">
          Something went wrong
        </Title>
        <Text>This screen could not be shown. Please reload the page or go back to the home screen.</Text>
        <Anchor component={Link} to={paths.home.href()}>
          Go to the home screen
        </Anchor>
      </Stack>
    </Container>
  );
}
