import {
  type ReferenceItem,
  type ReferenceItemInput,
  referenceItemSchema,
} from '@back-office/contract/reference-lists';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { referenceListKeys } from '../../../entities/reference-lists/index.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import type { ReferenceListConfig } from '../reference-list-configs.ts';
import { referenceItemBody } from './create-reference-item.ts';

/** The fields of an item plus the id of the one being edited (part 1 §7 Reference data). */
export type UpdateReferenceItemVariables = ReferenceItemInput & { id: number };

/** `PATCH /api/{list}/{id}` with `{id, name, ...}` returns the updated item (part 1 §7 Reference data). */
export function updateReferenceItem(
  list: ReferenceListConfig,
  input: UpdateReferenceItemVariables,
): Promise<ReferenceItem> {
  return apiRequest(`${list.apiPath}/${input.id}`, {
    method: 'PATCH',
    body: { id: input.id, ...referenceItemBody(list, input) },
    schema: referenceItemSchema,
  });
}

/**
 * Updates an item; once the server accepted it, the cached list shows the item as the server returned
 * it and is reloaded in the background (a long list such as Countries takes a while to redraw: the
 * dialog closes and the toast shows without waiting for it). Unlike the legacy client (part 1 §4 "Edit
 * is applied locally"), nothing changes on screen before the server accepted it, so a refusal leaves the list as it was.
 */
export function useUpdateReferenceItem(list: ReferenceListConfig) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateReferenceItemVariables) => updateReferenceItem(list, input),
    onSuccess: (updated) => {
      const queryKey = referenceListKeys.list(list.key);
      queryClient.setQueryData<ReferenceItem[]>(queryKey, (items) =>
        items?.map((item) => (item.id === updated.id ? updated : item)),
      );
      void queryClient.invalidateQueries({ queryKey });
    },
  });
}
