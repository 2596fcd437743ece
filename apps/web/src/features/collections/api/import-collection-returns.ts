import {
  type CollectionReturnsResult,
  collectionReturnsResultSchema,
} from '@back-office/contract/collections';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { collectionsQueryKey } from './get-collections.ts';

/**
 * `POST /api/collections/returns` (Administrator; multipart `file`: the bank's pain.002 status report
 * or camt.054 notification, at most 10 MB) → how many transactions were applied, already applied, not
 * sent or unknown, and each of them in file order; 400 `direct_debit.invalid_return_file` with a
 * readable `detail` for a file it cannot take.
 */
function importCollectionReturns(file: File): Promise<CollectionReturnsResult> {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiRequest('/api/collections/returns', {
    method: 'POST',
    body: form,
    schema: collectionReturnsResultSchema,
  });
}

/** Imports a bank return file; the collections are refreshed. */
export function useImportCollectionReturns() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importCollectionReturns,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: collectionsQueryKey }),
  });
}
