/** Reference lists (part 1 §2, §7 Reference data): subscription types, categories, countries, payment methods,
 * currencies and tags, one cached query per kind under `referenceListKeys`; read by any feature, edited only
 * by the reference-list screens, whose saves and deletes invalidate these keys. */
export {
  REFERENCE_LISTS,
  referenceItemOptions,
  referenceListKeys,
  referenceListQueryOptions,
  useNotifyReferenceListError,
  useReferenceItems,
  useReferenceList,
} from './api/get-reference-list.ts';
