import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router';
import { AppProvider } from '../app/provider.tsx';
import { routes } from '../app/router.tsx';
// The signed-in layout is lazy in the app (a faster login screen); loaded here once per test file so that the first
// signed-in screen of a test does not wait for its import.
import '../app/layout/app-layout.tsx';
import { paths } from '../config/paths.ts';
import { setUnauthorizedHandler } from '../lib/api-client.ts';
import { createQueryClient } from '../lib/query-client.ts';

/** Renders one component inside the app's providers and a memory router. */
export function renderWithProviders(ui: ReactElement, options: { path?: string } = {}) {
  const user = userEvent.setup();
  const result = render(
    <AppProvider env="test" queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={[options.path ?? '/']}>{ui}</MemoryRouter>
    </AppProvider>,
  );
  return { user, ...result };
}

/** Renders the whole route table at `path` (memory history instead of the hash). */
export function renderApp(path: string) {
  const user = userEvent.setup();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  setUnauthorizedHandler(() => {
    void router.navigate(paths.login.href(), { replace: true });
  });
  const result = render(
    <AppProvider env="test">
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { user, router, ...result };
}
