import { jsonResponse } from './fetch-mock.ts';

/**
 * Answers of the dashboard calls (part 1 §7 Dashboard, and the overdue invoices of docs/decisions/032)
 * for tests that land on the home screen without caring about its widgets: nothing low in stock, no
 * subscribers, no overdue invoice.
 */
export function emptyDashboardRoutes() {
  return {
    'GET /api/dash/prods': () => jsonResponse({ keyedData: [] }),
    'GET /api/dash/subs': () => jsonResponse({ labels: [], data: [] }),
    'GET /api/dash/overdue': () => jsonResponse({ count: 0, amounts: [] }),
  };
}
