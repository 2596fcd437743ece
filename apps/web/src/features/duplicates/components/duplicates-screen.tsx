import type { DuplicatePair } from '@back-office/contract/duplicates';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  Pagination,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconGitMerge, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { duplicateReasonsText } from '../../../entities/duplicates/index.ts';
import { formatFrenchDateTime, formatNumber } from '../../../lib/format.ts';
import { notifyError } from '../../../lib/notify.ts';
import { DUPLICATE_PAGE_SIZE, useDuplicatePairs } from '../api/get-duplicate-pairs.ts';
import { useScanDuplicates } from '../api/scan-duplicates.ts';

const percentFormat = new Intl.NumberFormat('fr-FR', { style: 'percent', maximumFractionDigits: 0 });

/** A subscriber of a pair, opened in a new tab so that the list stays where it is. */
function SubscriberLink({ id, name }: { id: number; name: string }) {
  return (
    <Anchor
      component={Link}
      to={paths.subscriber.href(id)}
      target="_blank"
      rel="noopener noreferrer"
      size="sm"
    >
      {name} (no. {id}) <VisuallyHidden>(opens in a new tab)</VisuallyHidden>
    </Anchor>
  );
}

function PairsTable({ pairs }: { pairs: readonly DuplicatePair[] }) {
  return (
    // Narrow screens scroll the table sideways inside the page.
    <Table.ScrollContainer minWidth={760}>
      <Table striped highlightOnHover verticalSpacing="sm" aria-label="Likely duplicates">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Subscriber</Table.Th>
            <Table.Th>Looks like</Table.Th>
            <Table.Th ta="right">Score</Table.Th>
            <Table.Th>Why</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {pairs.map((pair) => (
            <Table.Tr key={`${pair.aId}-${pair.bId}`}>
              <Table.Td>
                <SubscriberLink id={pair.aId} name={pair.aName} />
              </Table.Td>
              <Table.Td>
                <SubscriberLink id={pair.bId} name={pair.bName} />
              </Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                {percentFormat.format(pair.score)}
              </Table.Td>
              <Table.Td>{duplicateReasonsText(pair.reasons)}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="light"
                  component={Link}
                  to={paths.mergeSubscribers.href(pair.aId, pair.bId)}
                  leftSection={<IconGitMerge size={14} aria-hidden />}
                  aria-label={`Merge… ${pair.aName} (no. ${pair.aId}) and ${pair.bName} (no. ${pair.bId})`}
                >
                  Merge…
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * The Duplicates screen (not in the spec), Administrators only: "Search for duplicates" scans the whole
 * register in the background (`POST /api/subscribers/duplicates/scan`), the screen reading
 * `GET /api/subscribers/duplicates` every 2 seconds until it ends; below, the pairs of the last scan,
 * best first, 50 a page: both names (each opening its record), the score, why they look alike, and
 * "Merge…" opening the Merge screen of the pair.
 */
export function DuplicatesScreen() {
  const [page, setPage] = useState(1);
  const pairs = useDuplicatePairs(page);
  const scan = useScanDuplicates();
  const data = pairs.data;
  const scanning = data?.scanning === true;
  const pages = data ? Math.max(1, Math.ceil(data.count / DUPLICATE_PAGE_SIZE)) : 1;

  useEffect(() => {
    if (pairs.isError) notifyError('getting the duplicates');
  }, [pairs.isError]);

  // A scan can leave fewer pages than the one shown.
  useEffect(() => {
    if (page > pages) setPage(pages);
  }, [page, pages]);

  const handleScan = async () => {
    try {
      await scan.mutateAsync();
    } catch {
      notifyError('starting the search for duplicates');
    }
  };

  return (
    <>
      <PageHeader
        title="Duplicates"
        actions={
          <Button
            onClick={handleScan}
            loading={scan.isPending}
            disabled={scanning}
            leftSection={scanning ? <Loader size={14} aria-hidden /> : <IconSearch size={16} aria-hidden />}
          >
            {scanning ? 'Searching…' : 'Search for duplicates'}
          </Button>
        }
      />
      <Stack gap="md">
        <Text size="sm" aria-live="polite">
          {!data
            ? ''
            : scanning
              ? 'Searching the whole register for likely duplicates; the list is updated when it is done.'
              : data.scannedAt
                ? `Last search: ${formatFrenchDateTime(data.scannedAt)}. ${formatNumber(data.count)} ${data.count === 1 ? 'pair' : 'pairs'} of likely duplicates.`
                : 'No search for duplicates has been run yet.'}
        </Text>
        {pairs.isError && !data ? (
          <Alert color="red" variant="light" title="The duplicates could not be loaded">
            <Text size="sm">Please try again or contact your system administrator.</Text>
          </Alert>
        ) : !data ? (
          <Loader aria-label="Loading the duplicates" />
        ) : data.models.length === 0 ? (
          <EmptyState
            message={
              data.scannedAt
                ? 'No likely duplicates: the last search found none (or they were merged since).'
                : 'Search for duplicates to list the subscribers who look like the same person.'
            }
          />
        ) : (
          <>
            <PairsTable pairs={data.models} />
            {pages > 1 ? (
              <Group>
                <nav aria-label="Pages of the duplicates">
                  <Pagination
                    total={pages}
                    value={page}
                    onChange={setPage}
                    size="sm"
                    getControlProps={(control) => ({
                      'aria-label':
                        control === 'previous' ? 'Previous page' : control === 'next' ? 'Next page' : control,
                    })}
                  />
                </nav>
              </Group>
            ) : null}
          </>
        )}
      </Stack>
    </>
  );
}
