import type { StatementImport } from '@back-office/contract/bank-statements';
import { Alert, SimpleGrid, Text } from '@mantine/core';
import { formatNumber } from '../../../lib/format.ts';

const COUNTS: Array<[keyof StatementImport, string]> = [
  ['entries', 'Entries read'],
  ['matched', 'Matched to an invoice'],
  ['unmatched', 'To review'],
  ['duplicates', 'Already imported'],
  ['listed', 'Listed (debits, returns)'],
];

/**
 * What an import did (docs/decisions/033): the entries read, of them matched to an invoice, left to
 * review, already imported before, and listed (debits, returns and reversals), in French number format.
 */
export function StatementImportResult({ result }: { result: StatementImport }) {
  return (
    <Alert color="green" variant="light" title="Import done" role="status">
      <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="xs" component="dl" m={0} aria-label="Import counts">
        {COUNTS.map(([key, label]) => (
          <div key={key}>
            <Text component="dt" size="xs">
              {label}
            </Text>
            <Text component="dd" fw={700} m={0} data-testid={`import-${key}`}>
              {formatNumber(result[key])}
            </Text>
          </div>
        ))}
      </SimpleGrid>
    </Alert>
  );
}
