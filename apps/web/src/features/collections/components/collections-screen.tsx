import { Alert, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { EmptyState } from '../../../components/empty-state.tsx';
import { PageHeader } from '../../../components/page-header.tsx';
import { useCollections } from '../api/get-collections.ts';
import { CollectionForm } from './collection-form.tsx';
import { CollectionsTable } from './collections-table.tsx';
import { ReturnsImportForm } from './returns-import-form.tsx';

/**
 * The Collections screen (not in the spec; docs/decisions/029), Administrators only: SEPA direct
 * debits of the recurring gifts. Build the draft collection of a due date, import the bank's return
 * files, and below, every collection, newest due date first (due date `dd/mm/yyyy`, number of debits,
 * total in euros, status), each opening its own screen.
 */
export function CollectionsScreen() {
  const collections = useCollections();
  return (
    <>
      <PageHeader title="Collections" />
      <Stack gap="xl">
        <Text size="sm">
          A collection gathers the installments of the recurring gifts due on one day. Review its draft,
          download its file for the bank (each debtor is then emailed the amount and date), and settle it once
          the bank has credited the account: each debit becomes a donation.
        </Text>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Paper withBorder radius="md" p="md" component="section" aria-labelledby="build-collection-heading">
            <Title order={2} size="h3" id="build-collection-heading" mb="md">
              Build a collection
            </Title>
            <CollectionForm />
          </Paper>
          <Paper withBorder radius="md" p="md" component="section" aria-labelledby="import-returns-heading">
            <Title order={2} size="h3" id="import-returns-heading" mb="md">
              Import returns
            </Title>
            <ReturnsImportForm />
          </Paper>
        </SimpleGrid>
        <section aria-labelledby="collections-heading">
          <Title order={2} size="h3" id="collections-heading" mb="md">
            History
          </Title>
          {collections.isPending ? (
            <Loader size="sm" aria-label="Loading the collections..." />
          ) : collections.isError ? (
            <Alert color="red">The collections could not be loaded.</Alert>
          ) : collections.data.length === 0 ? (
            <EmptyState message="No collection has been built yet." />
          ) : (
            <CollectionsTable collections={collections.data} />
          )}
        </section>
      </Stack>
    </>
  );
}
