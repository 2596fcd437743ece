import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { TOAST_AUTO_CLOSE_MS } from '../lib/notify.ts';
import { queryClient as appQueryClient } from '../lib/query-client.ts';
import { cssVariablesResolver, theme } from './theme.ts';

type AppProviderProps = {
  children: ReactNode;
  queryClient?: QueryClient;
  /** `'test'` turns off Mantine transitions and portals (tests only). */
  env?: 'default' | 'test';
};

/**
 * Everything the screens need around them: Mantine theme, toasts at the bottom right for 5 s
 * (part 1 §8), and the TanStack Query cache.
 */
export function AppProvider({ children, queryClient = appQueryClient, env = 'default' }: AppProviderProps) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} env={env}>
      <Notifications position="bottom-right" autoClose={TOAST_AUTO_CLOSE_MS} />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
