import type { CollectionFileVersion } from '@back-office/contract/collections';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiDownload } from '../../../lib/api-client.ts';
import { saveFile } from '../../../lib/download.ts';
import { collectionsQueryKey } from './get-collections.ts';

/** Which collection's file, in which pain.008 version. */
export type DownloadCollectionFileInput = { id: number; dueDate: string; version: CollectionFileVersion };

/**
 * `GET /api/collections/{id}/file?version=` (Administrator): the pain.008 XML file, saved under the
 * answer's name, `collection-<dueDate>.xml`. The first download of a draft exports it: the file is
 * stored and the collection locked, and each debtor is emailed a pre-notification; later downloads
 * give the same bytes. 409 `collections.version_mismatch` for the other version, `collections.too_late`,
 * `collections.empty`, `collections.setup_incomplete`. Returns the name the file was saved under.
 */
async function downloadCollectionFile({
  id,
  dueDate,
  version,
}: DownloadCollectionFileInput): Promise<string> {
  const query = new URLSearchParams({ version });
  const file = await apiDownload(`/api/collections/${id}/file?${query.toString()}`, {
    accept: 'application/xml',
  });
  const filename = file.filename ?? `collection-${dueDate}.xml`;
  saveFile(file.blob, filename);
  return filename;
}

/** Downloads (and on a draft, exports) a collection's file; the collections are refreshed, after a refusal too. */
export function useDownloadCollectionFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: downloadCollectionFile,
    onSettled: () => queryClient.invalidateQueries({ queryKey: collectionsQueryKey }),
  });
}
