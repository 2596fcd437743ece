import { type ExchangeRateImport, exchangeRateImportSchema } from '@back-office/contract/exchange-rates';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { exchangeRatesQueryKey } from './get-exchange-rates.ts';

/**
 * `POST /api/exchange-rates/import` (Administrator; multipart `file`: the ECB's eurofxref-hist.csv)
 * → `{imported, skipped}`; 400 with a readable `detail` for a file it cannot take.
 */
function importEcbRates(file: File): Promise<ExchangeRateImport> {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiRequest('/api/exchange-rates/import', {
    method: 'POST',
    body: form,
    schema: exchangeRateImportSchema,
  });
}

/** Imports the ECB's file; the lists are refreshed. */
export function useImportEcbRates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importEcbRates,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: exchangeRatesQueryKey }),
  });
}
