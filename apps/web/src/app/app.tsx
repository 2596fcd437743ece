import { useState } from 'react';
import { createHashRouter, RouterProvider } from 'react-router';
import { paths } from '../config/paths.ts';
import { setUnauthorizedHandler } from '../lib/api-client.ts';
import { AppProvider } from './provider.tsx';
import { routes } from './router.tsx';

function createAppRouter() {
  const router = createHashRouter(routes);
  // part 1 §4: an API call refused for an expired or revoked token ends the session and goes to login.
  setUnauthorizedHandler(() => {
    void router.navigate(paths.login.href(), { replace: true });
  });
  return router;
}

/** The whole client: providers around the hash router (part 1 §2 Screens and routes). */
export function App() {
  const [router] = useState(createAppRouter);
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
