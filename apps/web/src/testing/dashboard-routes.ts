import { jsonResponse } from './fetch-mock.ts';

/**
 * Answers of the two dashboard calls (part 1 §7 Dashboard) for tests that land on the home screen
 * without caring about its widgets: nothing low in stock, no subscribers.
 */
export function emptyDashboardRoutes() {
  return {
    'GET /api/dash/prods': () => jsonResponse({ keyedData: [] }),
    'GET /api/dash/subs': () => jsonResponse({ labels: [], data: [] }),
  };
}
