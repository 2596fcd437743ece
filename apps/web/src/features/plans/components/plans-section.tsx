import type { Plan, PlanStatus } from '@back-office/contract/plans';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { EmptyState } from '../../../components/empty-state.tsx';
import { FormModal } from '../../../components/form-modal.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { frenchDay } from '../../../lib/french-date.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { usePlans } from '../api/get-plans.ts';
import { useSavePlan } from '../api/save-plan.ts';
import { formatEuros, PLAN_FREQUENCY_LABELS, PLAN_STATUS_BADGES } from '../plan-format.ts';
import { PlanFormModal, type PlanMandateOption } from './plan-form-modal.tsx';

type PlansSectionProps = {
  subscriberId: number;
  /** The subscriber's mandates (from the page): the active recurring ones can carry a gift. */
  mandates: PlanMandateOption[];
  /** After any change of a plan: the subscriber's history changed. */
  onChanged: () => void;
};

/** What each status change is called, and its past tense for the toast. */
const STATUS_ACTIONS: Record<PlanStatus, { action: string; done: string }> = {
  paused: { action: 'Pause', done: 'paused' },
  active: { action: 'Resume', done: 'resumed' },
  ended: { action: 'End', done: 'ended' },
};

/** "25,00 € monthly": how a plan is named in buttons and messages. */
function planName(plan: Plan): string {
  return `${formatEuros(plan.amount)} ${PLAN_FREQUENCY_LABELS[plan.frequency].toLowerCase()}`;
}

/**
 * The recurring gifts by SEPA direct debit of a subscriber (docs/decisions/028), on the subscriber
 * screen under the mandates: a table of amount (`25,00 €`), frequency, day of the month, from and to
 * (`dd/mm/yyyy`), mandate RUM and status; Add, and for each plan not ended Edit, Pause or Resume, and
 * End (after a confirmation: an ended plan cannot change any more). The table scrolls sideways at
 * 375 px, and its scrolling area takes the keyboard focus.
 */
export function PlansSection({ subscriberId, mandates, onChanged }: PlansSectionProps) {
  const plans = usePlans(subscriberId);
  const [editing, setEditing] = useState<Plan | 'new' | null>(null);
  const [ending, setEnding] = useState<Plan | null>(null);
  const save = useSavePlan();

  const handleStatus = async (plan: Plan, status: PlanStatus): Promise<boolean> => {
    try {
      await save.mutateAsync({ subscriberId, id: plan.id, values: { status } });
    } catch (error) {
      notifyError(
        'changing the recurring gift',
        error instanceof ApiError && error.detail ? error.detail : undefined,
      );
      return false;
    }
    notifySuccess(`The recurring gift of ${planName(plan)} was ${STATUS_ACTIONS[status].done}.`);
    onChanged();
    return true;
  };

  const handleEnd = async () => {
    if (ending && (await handleStatus(ending, 'ended'))) setEnding(null);
  };

  return (
    <section aria-labelledby="plans-heading">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h3" id="plans-heading">
            Recurring gifts
          </Title>
          <Button
            size="sm"
            variant="light"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setEditing('new')}
          >
            Add a recurring gift
          </Button>
        </Group>
        {plans.isPending ? (
          <Loader size="sm" aria-label="Loading the recurring gifts..." />
        ) : plans.isError ? (
          <Alert color="red">The recurring gifts could not be loaded.</Alert>
        ) : plans.data.length === 0 ? (
          <EmptyState message="No recurring gift for this subscriber." />
        ) : (
          <Paper withBorder radius="md">
            <Table.ScrollContainer minWidth={760} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
              <Table verticalSpacing="xs" horizontalSpacing="sm" aria-label="Recurring gifts">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th ta="right">Amount</Table.Th>
                    <Table.Th>Frequency</Table.Th>
                    <Table.Th ta="right">Day</Table.Th>
                    <Table.Th>From</Table.Th>
                    <Table.Th>To</Table.Th>
                    <Table.Th>Mandate</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {plans.data.map((plan) => (
                    <PlanRow
                      key={plan.id}
                      plan={plan}
                      busy={save.isPending}
                      onEdit={() => setEditing(plan)}
                      onPause={() => void handleStatus(plan, 'paused')}
                      onResume={() => void handleStatus(plan, 'active')}
                      onEnd={() => setEnding(plan)}
                    />
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Paper>
        )}
      </Stack>
      <PlanFormModal
        subscriberId={subscriberId}
        mandates={mandates}
        plan={editing}
        onSaved={onChanged}
        onClose={() => setEditing(null)}
      />
      <FormModal
        opened={ending !== null}
        title="End the recurring gift"
        size="sm"
        busy={save.isPending}
        onClose={() => setEnding(null)}
      >
        <Stack gap="md">
          <Text>
            {ending ? `The recurring gift of ${planName(ending)} will not be collected any more. ` : ''}
            An ended gift cannot be resumed nor changed.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setEnding(null)} disabled={save.isPending}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void handleEnd()} loading={save.isPending} data-autofocus>
              End the gift
            </Button>
          </Group>
        </Stack>
      </FormModal>
    </section>
  );
}

function PlanRow({
  plan,
  busy,
  onEdit,
  onPause,
  onResume,
  onEnd,
}: {
  plan: Plan;
  busy: boolean;
  onEdit: () => void;
  onPause: () => void;
  onResume: () => void;
  onEnd: () => void;
}) {
  const badge = PLAN_STATUS_BADGES[plan.status];
  const name = planName(plan);
  return (
    <Table.Tr>
      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
        {formatEuros(plan.amount)}
      </Table.Td>
      <Table.Td>{PLAN_FREQUENCY_LABELS[plan.frequency]}</Table.Td>
      <Table.Td ta="right">{plan.dayOfMonth}</Table.Td>
      <Table.Td>{frenchDay(plan.startOn)}</Table.Td>
      <Table.Td>{plan.endOn ? frenchDay(plan.endOn) : '—'}</Table.Td>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>{plan.mandateRum}</Table.Td>
      <Table.Td>
        <Badge color={badge.color} variant="dot" style={{ overflow: 'visible' }}>
          {badge.label}
        </Badge>
      </Table.Td>
      <Table.Td>
        {plan.status === 'ended' ? null : (
          <Group gap="xs" wrap="nowrap">
            <Button size="xs" variant="light" onClick={onEdit} aria-label={`Edit the gift of ${name}`}>
              Edit
            </Button>
            {plan.status === 'active' ? (
              <Button
                size="xs"
                variant="light"
                color="yellow"
                onClick={onPause}
                disabled={busy}
                aria-label={`Pause the gift of ${name}`}
              >
                Pause
              </Button>
            ) : (
              <Button
                size="xs"
                variant="light"
                color="green"
                onClick={onResume}
                disabled={busy}
                aria-label={`Resume the gift of ${name}`}
              >
                Resume
              </Button>
            )}
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={onEnd}
              disabled={busy}
              aria-label={`End the gift of ${name}`}
            >
              End
            </Button>
          </Group>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
