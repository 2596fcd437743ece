import {
  COUNTRY_ORDER,
  type ReferenceItem,
  type ReferenceItemInput,
  referenceItemSchema,
} from '@back-office/contract/reference-lists';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { referenceListKeys } from '../../../entities/reference-lists/index.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import type { ReferenceListConfig } from '../reference-list-configs.ts';

/**
 * The wire body of a create or update (part 1 §7 Reference data): `name`, plus `symbol` for
 * currencies, `directDebit` for payment methods, `order: 100` for countries (§4), and `isoCode` (null
 * for none) for countries and currencies.
 */
export function referenceItemBody(list: ReferenceListConfig, input: ReferenceItemInput) {
  return {
    name: input.name,
    ...(list.withSymbol ? { symbol: input.symbol ?? '' } : {}),
    ...(list.withDirectDebit ? { directDebit: input.directDebit ?? false } : {}),
    ...(list.withOrder ? { order: COUNTRY_ORDER } : {}),
    ...(list.isoCode ? { isoCode: input.isoCode ?? null } : {}),
  };
}

/** `POST /api/{list}` returns the created item with status 201 (part 1 §7 Reference data). */
export function createReferenceItem(
  list: ReferenceListConfig,
  input: ReferenceItemInput,
): Promise<ReferenceItem> {
  return apiRequest(list.apiPath, {
    method: 'POST',
    body: referenceItemBody(list, input),
    schema: referenceItemSchema,
  });
}

/** Creates an item, then reloads the list in the server's order (no optimistic edit: nothing shows before the server accepted it). */
export function useCreateReferenceItem(list: ReferenceListConfig) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReferenceItemInput) => createReferenceItem(list, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: referenceListKeys.list(list.key) }),
  });
}
