import {
  type CollectionSummary,
  type CreateCollectionInput,
  collectionSummarySchema,
} from '@back-office/contract/collections';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { collectionsQueryKey } from './get-collections.ts';

/**
 * `POST /api/collections {dueDate}` (Administrator) → the draft of that day: 201 built, 200 the
 * existing draft with the installments due since added. 409 `collections.too_soon` (its `errors` name
 * `dueDate` and the earliest day allowed), 409 `collections.setup_incomplete` (its `errors` name the
 * settings missing, such as `sepaCreditorId`), 400 naming the field.
 */
function createCollection(input: CreateCollectionInput): Promise<CollectionSummary> {
  return apiRequest('/api/collections', { method: 'POST', body: input, schema: collectionSummarySchema });
}

/** Builds (or completes) the draft collection of a due date; the collections are refreshed. */
export function useCreateCollection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCollection,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: collectionsQueryKey }),
  });
}
