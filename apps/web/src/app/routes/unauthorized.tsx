import { Alert } from '@mantine/core';
import { Dashboard } from '../../features/dashboard/components/dashboard.tsx';

/** /unauthorized (part 1 §2: shows the home screen), with a line saying why the user landed here. */
export function UnauthorizedRoute() {
  return (
    <>
      <Alert color="yellow" variant="light" mb="lg">
        You are not allowed to open that screen.
      </Alert>
      <Dashboard />
    </>
  );
}
