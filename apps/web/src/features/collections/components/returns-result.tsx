import type { CollectionReturnLine, CollectionReturnsResult } from '@back-office/contract/collections';
import { Alert, Anchor, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import {
  formatEuros,
  RETURN_OUTCOME_LABELS,
  reasonText,
  returnConsequences,
  returnsSummaryText,
} from '../collection-format.ts';

/** Badge colour of each outcome: what changed stands out, what did not is grey. */
const OUTCOME_COLORS: Record<CollectionReturnLine['outcome'], string> = {
  applied: 'green',
  alreadyApplied: 'gray',
  notSent: 'orange',
  unknown: 'orange',
};

/**
 * What a return file did: the counts (applied, already applied, not sent, unknown), then one card per
 * transaction in file order: the debtor (a link to the subscriber), the RUM, the amount in euros,
 * returned or rejected with the reason code in words, the outcome, and what followed ("donation
 * cancelled", "receipt n° N should be cancelled", "mandate suspended"). Cards read at 375 px.
 */
export function ReturnsResult({ result }: { result: CollectionReturnsResult }) {
  return (
    <Stack gap="sm">
      <Alert color="green" variant="light" title="Import done" role="status">
        <Text size="sm">{returnsSummaryText(result)}.</Text>
      </Alert>
      {result.lines.length > 0 ? (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Returned debits">
          {result.lines.map((line) => (
            <ReturnCard key={`${line.endToEndId}-${line.status}`} line={line} />
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
}

function ReturnCard({ line }: { line: CollectionReturnLine }) {
  const consequences = returnConsequences(line);
  const name = line.subscriberName ?? line.endToEndId;
  return (
    <Paper component="li" withBorder p="sm" radius="md" aria-label={`Return of ${name}`}>
      <Stack gap={4}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          {line.subscriberId !== undefined && line.subscriberName ? (
            <Anchor component={Link} to={paths.subscriber.href(line.subscriberId)} fw={600}>
              {line.subscriberName}
            </Anchor>
          ) : (
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {line.endToEndId}
            </Text>
          )}
          <Badge color={OUTCOME_COLORS[line.outcome]} variant="dot" style={{ overflow: 'visible' }}>
            {RETURN_OUTCOME_LABELS[line.outcome]}
          </Badge>
        </Group>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {[
            line.rum ? `RUM ${line.rum}` : null,
            line.amount !== undefined ? formatEuros(line.amount) : null,
            `${line.status === 'returned' ? 'Returned' : 'Rejected'}: ${reasonText(line.reasonCode)}`,
          ]
            .filter(Boolean)
            .join(' · ')}
        </Text>
        {consequences.length > 0 ? (
          <Text size="sm" fw={500}>
            {consequences.map((text) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`).join('. ')}.
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
