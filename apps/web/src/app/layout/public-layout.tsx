import { Box, Center, Text } from '@mantine/core';
import { Outlet } from 'react-router';

/** Frame of the open screens (part 1 §2: login and password reset), without the navigation bar. */
export function PublicLayout() {
  return (
    <Box mih="100vh" bg="gray.0" pb="xl">
      <Center pt={48}>
        <Text fw={700} size="xl" c="blue.8">
          Back Office
        </Text>
      </Center>
      <Box component="main">
        <Outlet />
      </Box>
    </Box>
  );
}
