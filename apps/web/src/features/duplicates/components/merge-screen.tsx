import type { MergeableField } from '@back-office/contract/duplicates';
import { MERGE_UNDO_DAYS } from '@back-office/contract/duplicates';
import type { Subscriber } from '@back-office/contract/subscribers';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Divider,
  Grid,
  Group,
  List,
  Loader,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowsLeftRight, IconGitMerge } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { useReferenceItems } from '../../../entities/reference-lists/index.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { formatFrenchDateTime } from '../../../lib/format.ts';
import { useMergeSubscriber } from '../api/get-merge-subscriber.ts';
import { useMergeSubscribers } from '../api/merge-subscribers.ts';
import {
  defaultChoice,
  displayValue,
  MERGE_FIELD_LABELS,
  MERGE_FIELDS,
  type MergeChoice,
  type MergeLookups,
  sameValue,
  subscriberName,
} from '../merge-fields.ts';
import { MERGE_GRID_COLUMNS, MergeFieldRow } from './merge-field-row.tsx';
import { notifyMerged } from './merged-notification.tsx';

/** A positive id of the address, or null. */
function idOf(value: string | null): number | null {
  const id = Number(value);
  return value && Number.isInteger(id) && id > 0 ? id : null;
}

/** A problem's sentence for people when the server gave one (4xx), otherwise the generic one. */
function reasonOf(error: unknown): string {
  return error instanceof ApiError && error.detail && error.status >= 400 && error.status < 500
    ? error.detail
    : 'Please try again or contact your system administrator.';
}

/** "Zoé Dupont (no. 42)", the link opening the record in a new tab. */
function RecordLink({ subscriber }: { subscriber: Subscriber }) {
  return (
    <Anchor
      component={Link}
      to={paths.subscriber.href(subscriber.id)}
      target="_blank"
      rel="noopener noreferrer"
    >
      {subscriberName(subscriber)} (no. {subscriber.id}) <VisuallyHidden>(opens in a new tab)</VisuallyHidden>
    </Anchor>
  );
}

/** One of the two records at the top: whether it is kept or merged, its name, place and when it was added. */
function RecordCard({ subscriber, kept }: { subscriber: Subscriber; kept: boolean }) {
  const place = `${subscriber.postcode} ${subscriber.town}`.trim();
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap={6}>
        {/* A coloured dot beside dark text: light badges fall short of the AA contrast ratio. */}
        <Badge color={kept ? 'green' : 'orange'} variant="dot" style={{ overflow: 'visible' }}>
          {kept ? 'Kept' : 'Merged into the kept one'}
        </Badge>
        <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
          <RecordLink subscriber={subscriber} />
        </Title>
        {place || subscriber.email ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {[place, subscriber.email].filter((part) => part !== '').join(' · ')}
          </Text>
        ) : null}
        {subscriber.addedOn ? (
          <Text size="sm">
            Added on {formatFrenchDateTime(subscriber.addedOn)}
            {subscriber.addedBy ? ` by ${subscriber.addedBy}` : ''}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

type ComparisonProps = {
  keep: Subscriber;
  merge: Subscriber;
  lookups: MergeLookups;
  onSwap: () => void;
};

/** The two records side by side, the choices, the summary, the confirmation and the merge itself. */
function MergeComparison({ keep, merge, lookups, onSwap }: ComparisonProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mergeSubscribers = useMergeSubscribers();
  // The record whose value each field ends with, by id, so that a swap keeps what was chosen.
  const [chosen, setChosen] = useState<Partial<Record<MergeableField, number>>>({});
  const [confirming, setConfirming] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  const differing = MERGE_FIELDS.filter((field) => !sameValue(field, keep, merge));
  const alike = MERGE_FIELDS.filter(
    (field) => sameValue(field, keep, merge) && displayValue(field, keep, lookups) !== '',
  );
  const choiceOf = (field: MergeableField): MergeChoice => {
    const source = chosen[field];
    if (source === keep.id) return 'keep';
    if (source === merge.id) return 'merge';
    return defaultChoice(field, keep, merge);
  };
  const taken = differing.filter((field) => choiceOf(field) === 'merge');
  // With the numbers: look-alikes often bear the same name.
  const keepName = `${subscriberName(keep)} (no. ${keep.id})`;
  const mergeName = `${subscriberName(merge)} (no. ${merge.id})`;

  const handleMerge = async () => {
    setRefusal(null);
    const fields = Object.fromEntries(differing.map((field) => [field, choiceOf(field)]));
    try {
      const done = await mergeSubscribers.mutateAsync({ keepId: keep.id, mergeId: merge.id, fields });
      notifyMerged({
        merge: done,
        keepName,
        mergeName,
        queryClient,
        onUndone: () => void navigate(paths.mergeSubscribers.href(done.keepId, done.mergeId)),
      });
      void navigate(paths.subscriber.href(done.keepId));
    } catch (error) {
      setRefusal(reasonOf(error));
      setConfirming(false);
    }
  };

  return (
    <Stack gap="lg">
      <Text size="sm">
        Choose the record that is kept and, for each field that differs, the value it keeps. Nothing changes
        until you confirm.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <RecordCard subscriber={keep} kept />
        <RecordCard subscriber={merge} kept={false} />
      </SimpleGrid>
      <Group gap="sm">
        <Button
          variant="default"
          leftSection={<IconArrowsLeftRight size={16} aria-hidden />}
          onClick={onSwap}
        >
          Swap
        </Button>
        <Text size="sm">Keep {mergeName} instead.</Text>
      </Group>

      <section aria-labelledby="merge-differing">
        <Title order={2} size="h3" id="merge-differing" mb="xs">
          Fields that differ
        </Title>
        {differing.length === 0 ? (
          <Text size="sm">None: both records hold the same values.</Text>
        ) : (
          <Stack gap="sm">
            <Grid columns={MERGE_GRID_COLUMNS} gap="xs" visibleFrom="sm" aria-hidden>
              <Grid.Col span={2}>
                <Text size="sm" fw={700}>
                  Field
                </Text>
              </Grid.Col>
              <Grid.Col span={4}>
                <Text size="sm" fw={700}>
                  {keepName}, kept
                </Text>
              </Grid.Col>
              <Grid.Col span={4}>
                <Text size="sm" fw={700}>
                  {mergeName}
                </Text>
              </Grid.Col>
            </Grid>
            {differing.map((field) => (
              <Stack key={field} gap="sm">
                <Divider />
                <MergeFieldRow
                  field={field}
                  keep={keep}
                  merge={merge}
                  lookups={lookups}
                  choice={choiceOf(field)}
                  onChange={(choice) =>
                    setChosen((current) => ({ ...current, [field]: choice === 'keep' ? keep.id : merge.id }))
                  }
                />
              </Stack>
            ))}
          </Stack>
        )}
      </section>

      {alike.length > 0 ? (
        <section aria-labelledby="merge-alike">
          <Title order={2} size="h3" id="merge-alike" mb="xs">
            Same on both
          </Title>
          <SimpleGrid component="dl" cols={{ base: 1, sm: 2 }} spacing="xs" m={0}>
            {alike.map((field) => (
              <Group key={field} gap="xs" wrap="nowrap" align="flex-start">
                <Text component="dt" size="sm" fw={600} miw={130}>
                  {MERGE_FIELD_LABELS[field]}
                </Text>
                <Text
                  component="dd"
                  size="sm"
                  m={0}
                  style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                >
                  {displayValue(field, keep, lookups)}
                </Text>
              </Group>
            ))}
          </SimpleGrid>
        </section>
      ) : null}

      <section aria-labelledby="merge-summary">
        <Title order={2} size="h3" id="merge-summary" mb="xs">
          What the merge does
        </Title>
        <List size="sm" spacing={4}>
          <List.Item>
            {keepName} is kept
            {taken.length === 0
              ? ' with all its values.'
              : `, taking ${taken.length === 1 ? 'one value' : `${taken.length} values`} from ${mergeName}: ${taken.map((field) => MERGE_FIELD_LABELS[field]).join(', ')}.`}
          </List.Item>
          <List.Item>
            The donations, sales, receipts, tags and history of {mergeName} move to {keepName}.
          </List.Item>
          <List.Item>
            {mergeName} is then hidden: its number leads to {keepName}.
          </List.Item>
          <List.Item>
            The merge can be undone for {MERGE_UNDO_DAYS} days, as long as {keepName} is not changed
            meanwhile.
          </List.Item>
        </List>
      </section>

      {refusal ? (
        <Alert
          color="red"
          variant="light"
          title="The subscribers were not merged"
          withCloseButton
          closeButtonLabel="Dismiss"
          onClose={() => setRefusal(null)}
        >
          <Text size="sm">{refusal}</Text>
        </Alert>
      ) : null}

      <Group gap="sm">
        <Button
          color="red"
          leftSection={<IconGitMerge size={16} aria-hidden />}
          onClick={() => setConfirming(true)}
        >
          Merge…
        </Button>
        <Button variant="default" component={Link} to={paths.duplicates.href()}>
          Cancel
        </Button>
      </Group>

      <Modal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Merge these subscribers?"
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        <Text size="sm" mb="md">
          {mergeName} is merged into {keepName} and hidden; its donations, sales, receipts, tags and history
          move there.{' '}
          {taken.length === 0
            ? `${keepName} keeps all its values.`
            : `${keepName} takes ${taken.map((field) => MERGE_FIELD_LABELS[field]).join(', ')} from ${mergeName}.`}
        </Text>
        <Group justify="flex-end">
          <Button
            variant="default"
            onClick={() => setConfirming(false)}
            disabled={mergeSubscribers.isPending}
          >
            Cancel
          </Button>
          <Button color="red" onClick={handleMerge} loading={mergeSubscribers.isPending}>
            Merge
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}

/** Loads both records and the reference lists, then compares them; says why when it cannot. */
function MergePair({ keepId, mergeId, onSwap }: { keepId: number; mergeId: number; onSwap: () => void }) {
  const keep = useMergeSubscriber(keepId);
  const merge = useMergeSubscriber(mergeId);
  const lookups: MergeLookups = {
    categories: useReferenceItems('cats'),
    countries: useReferenceItems('ctries'),
    paymentMethods: useReferenceItems('pmethods'),
    currencies: useReferenceItems('currencies'),
    subscriptionTypes: useReferenceItems('subs'),
  };

  const failed = keep.isError ? keep.error : merge.isError ? merge.error : null;
  if (failed) {
    return (
      <Alert color="red" variant="light" title="These subscribers cannot be merged">
        <Text size="sm">{reasonOf(failed)}</Text>
      </Alert>
    );
  }
  if (!keep.data || !merge.data) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading the subscribers" />
      </Center>
    );
  }
  // An id already merged leads to the record it was merged into (308): nothing is left to merge.
  for (const [asked, record] of [
    [keepId, keep.data],
    [mergeId, merge.data],
  ] as const) {
    if (record.id !== asked) {
      return (
        <Alert color="orange" variant="light" title="Already merged">
          <Text size="sm">
            Subscriber no. {asked} was already merged into <RecordLink subscriber={record} />.
          </Text>
        </Alert>
      );
    }
  }
  return <MergeComparison keep={keep.data} merge={merge.data} lookups={lookups} onSwap={onSwap} />;
}

/**
 * The Merge screen (not in the spec), Administrators only, at `?keep=<id>&merge=<id>`: both subscribers
 * (`GET /api/subscribers/{id}`) side by side field by field, with the subscriber form's labels and
 * reference items by name; a radio per differing field keeps the kept record's value or takes the
 * other's (by default the kept one's, unless it is empty and the other is not); Swap changes which
 * record is kept. After a confirmation, `POST /api/subscribers/merge`, then a toast with Undo and the
 * kept subscriber's page; a refusal (400, 404, 409) is shown with the server's reason.
 */
export function MergeScreen() {
  const [searchParams, setSearchParams] = useSearchParams();
  const keepId = idOf(searchParams.get('keep'));
  const mergeId = idOf(searchParams.get('merge'));
  const valid = keepId !== null && mergeId !== null && keepId !== mergeId;

  return (
    <>
      <PageHeader
        title="Merge subscribers"
        actions={
          <Button variant="default" component={Link} to={paths.duplicates.href()}>
            Back to Duplicates
          </Button>
        }
      />
      {valid ? (
        <MergePair
          keepId={keepId}
          mergeId={mergeId}
          onSwap={() => setSearchParams({ keep: String(mergeId), merge: String(keepId) }, { replace: true })}
        />
      ) : (
        <Alert color="red" variant="light" title="Choose two different subscribers">
          <Text size="sm">Open this screen from the Duplicates screen's Merge… button.</Text>
        </Alert>
      )}
    </>
  );
}
