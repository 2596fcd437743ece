import {
  type ExchangeRate,
  exchangeRateSchema,
  type SaveExchangeRateInput,
} from '@back-office/contract/exchange-rates';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { exchangeRatesQueryKey } from './get-exchange-rates.ts';

/**
 * `POST /api/exchange-rates` (Administrator) → the rate: 201 stored, 200 the same rate was stored
 * already; 409 `exchange_rates.conflict` when another rate is stored for that day and currency (its
 * `errors` name `rate`), 400 naming the field.
 */
function saveExchangeRate(input: SaveExchangeRateInput): Promise<ExchangeRate> {
  return apiRequest('/api/exchange-rates', { method: 'POST', body: input, schema: exchangeRateSchema });
}

/** Saves one rate; the lists are refreshed. */
export function useSaveExchangeRate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveExchangeRate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: exchangeRatesQueryKey }),
  });
}
