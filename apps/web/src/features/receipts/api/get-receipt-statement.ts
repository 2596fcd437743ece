import {
  type ReceiptStatement,
  receiptStatementQuerySchema,
  receiptStatementSchema,
} from '@back-office/contract/receipts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { searchQueryString } from '../../../lib/search-query.ts';
import { receiptsQueryKeyRoot } from './search-receipts.ts';

/** Query key of the statement of `year`: under the register's, so that a cancel or a replace refreshes it. */
export function receiptStatementQueryKey(year: number) {
  return [...receiptsQueryKeyRoot, 'annual-statement', year] as const;
}

/**
 * `GET /api/receipts/annual-statement?year=` (Administrators): the annual statement of CGI art. 222 bis,
 * the Cerfa receipts issued in `year` and not cancelled, how many and the total of the gifts they state
 * in euros, and the same per article of the tax code.
 */
async function getReceiptStatement(year: number, signal?: AbortSignal): Promise<ReceiptStatement> {
  const query = searchQueryString(receiptStatementQuerySchema, { year });
  return apiRequest(`/api/receipts/annual-statement?${query}`, {
    schema: receiptStatementSchema,
    ...(signal ? { signal } : {}),
  });
}

/** The statement of `year` (CGI art. 222 bis), in euros. */
export function useReceiptStatement(year: number) {
  return useQuery(
    queryOptions({
      queryKey: receiptStatementQueryKey(year),
      queryFn: ({ signal }) => getReceiptStatement(year, signal),
    }),
  );
}
