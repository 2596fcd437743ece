import type { ReferenceItem } from '@back-office/contract/reference-lists';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { referenceListKeys } from '../../../entities/reference-lists/index.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import type { ReferenceListConfig } from '../reference-list-configs.ts';

/**
 * `DELETE /api/{list}/{id}` (part 1 §7 Reference data). An item still used by records is refused
 * with a 409 `reference_lists.in_use` whose detail says by how many (part 1 §8).
 */
export function deleteReferenceItem(list: ReferenceListConfig, id: number): Promise<void> {
  return apiRequest(`${list.apiPath}/${id}`, { method: 'DELETE' });
}

/** Removes a deleted item from the cached list once its row has faded out (part 1 §4 Row delete). */
export function useForgetDeletedReferenceItem(list: ReferenceListConfig) {
  const queryClient = useQueryClient();
  return (id: number) => {
    const queryKey = referenceListKeys.list(list.key);
    queryClient.setQueryData<ReferenceItem[]>(queryKey, (items) => items?.filter((item) => item.id !== id));
    return queryClient.invalidateQueries({ queryKey });
  };
}

/** Deletes an item on the server; the list drops the row only after the server said yes. */
export function useDeleteReferenceItem(list: ReferenceListConfig) {
  return useMutation({ mutationFn: (id: number) => deleteReferenceItem(list, id) });
}
