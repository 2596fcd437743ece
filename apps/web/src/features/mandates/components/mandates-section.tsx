import type { Mandate } from '@back-office/contract/mandates';
import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDelete } from '../../../components/confirm-delete.tsx';
import { EmptyState } from '../../../components/empty-state.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { frenchDay } from '../../../lib/french-date.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useDeleteMandate } from '../api/delete-mandate.ts';
import { useMandates } from '../api/get-mandates.ts';
import { formatIban, MANDATE_STATUS_BADGES, MANDATE_TYPE_LABELS } from '../mandate-format.ts';
import { MandateFormModal } from './mandate-form-modal.tsx';
import { RevokeMandateModal } from './revoke-mandate-modal.tsx';

type MandatesSectionProps = {
  subscriberId: number;
  /** After any change of a mandate: the subscriber's record (RUM, IBAN, version) and history changed. */
  onChanged: () => void;
};

/**
 * The SEPA mandates of a subscriber (docs/decisions/027), on the subscriber screen: each with its RUM,
 * IBAN in groups of 4, date of signature (`dd/mm/yyyy`), type and status ("Suspended on dd/mm/yyyy:
 * reason" once the bank's returns suspended it, "Revoked on …" likewise); Add, and for each Edit
 * (active ones), Revoke (active or suspended ones), Delete (never used ones). One card per mandate, so
 * that it reads at 375 px.
 */
export function MandatesSection({ subscriberId, onChanged }: MandatesSectionProps) {
  const mandates = useMandates(subscriberId);
  const [editing, setEditing] = useState<Mandate | 'new' | null>(null);
  const [revoking, setRevoking] = useState<Mandate | null>(null);
  const deleteMandate = useDeleteMandate();

  const handleDelete = async (mandate: Mandate): Promise<boolean> => {
    try {
      await deleteMandate.mutateAsync(mandate);
    } catch (error) {
      notifyError(
        'deleting the mandate',
        error instanceof ApiError && error.detail ? error.detail : undefined,
      );
      return false;
    }
    notifySuccess(`The mandate ${mandate.rum} was deleted.`);
    onChanged();
    return true;
  };

  return (
    <section aria-labelledby="mandates-heading">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h3" id="mandates-heading">
            Mandates
          </Title>
          <Button
            size="sm"
            variant="light"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setEditing('new')}
          >
            Add a mandate
          </Button>
        </Group>
        {mandates.isPending ? (
          <Loader size="sm" aria-label="Loading the mandates..." />
        ) : mandates.isError ? (
          <Alert color="red">The mandates could not be loaded.</Alert>
        ) : mandates.data.length === 0 ? (
          <EmptyState message="No SEPA mandate for this subscriber." />
        ) : (
          <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
            {mandates.data.map((mandate) => (
              <MandateCard
                key={mandate.id}
                mandate={mandate}
                onEdit={() => setEditing(mandate)}
                onRevoke={() => setRevoking(mandate)}
                onDelete={() => handleDelete(mandate)}
              />
            ))}
          </Stack>
        )}
      </Stack>
      <MandateFormModal
        subscriberId={subscriberId}
        mandate={editing}
        onSaved={onChanged}
        onClose={() => setEditing(null)}
      />
      <RevokeMandateModal mandate={revoking} onRevoked={onChanged} onClose={() => setRevoking(null)} />
    </section>
  );
}

function MandateCard({
  mandate,
  onEdit,
  onRevoke,
  onDelete,
}: {
  mandate: Mandate;
  onEdit: () => void;
  onRevoke: () => void;
  onDelete: () => Promise<boolean>;
}) {
  const badge = MANDATE_STATUS_BADGES[mandate.status];
  const active = mandate.status === 'active';
  // The bank's returns suspend a mandate; staff may then revoke it for good.
  const revocable = active || mandate.status === 'suspended';
  const used = mandate.lastCollectedOn !== undefined;
  return (
    <Paper component="li" withBorder p="sm" radius="md" aria-label={`Mandate ${mandate.rum}`}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {mandate.rum}
          </Text>
          <Badge color={badge.color} variant="dot" style={{ overflow: 'visible' }}>
            {badge.label}
          </Badge>
        </Group>
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {mandate.iban ? formatIban(mandate.iban) : 'No IBAN'}
          {mandate.bic ? ` · BIC ${mandate.bic}` : ''}
        </Text>
        <Text size="sm">
          {MANDATE_TYPE_LABELS[mandate.type]} · signed on {frenchDay(mandate.signedOn)}
          {mandate.lastCollectedOn ? ` · last collected on ${frenchDay(mandate.lastCollectedOn)}` : ''}
        </Text>
        {mandate.amendment ? (
          <Text size="sm">
            Amended on {frenchDay(mandate.amendment.amendedOn)}: the next collection announces the change
            {mandate.amendment.originalRum ? ` from RUM ${mandate.amendment.originalRum}` : ''}
            {mandate.amendment.originalIban ? ` from IBAN ${formatIban(mandate.amendment.originalIban)}` : ''}
            .
          </Text>
        ) : null}
        {mandate.suspendedOn ? (
          <Text size="sm">
            Suspended on {frenchDay(mandate.suspendedOn)}
            {mandate.suspendedReason ? `: ${mandate.suspendedReason}` : ''}
          </Text>
        ) : null}
        {mandate.revokedOn ? (
          <Text size="sm">
            Revoked on {frenchDay(mandate.revokedOn)}
            {mandate.revokedReason ? `: ${mandate.revokedReason}` : ''}
          </Text>
        ) : null}
        {revocable || !used ? (
          <Group gap="xs" wrap="wrap">
            {active ? (
              <Button size="xs" variant="light" onClick={onEdit} aria-label={`Edit mandate ${mandate.rum}`}>
                Edit
              </Button>
            ) : null}
            {revocable ? (
              <Button
                size="xs"
                variant="light"
                color="orange"
                onClick={onRevoke}
                aria-label={`Revoke mandate ${mandate.rum}`}
              >
                Revoke
              </Button>
            ) : null}
            {used ? null : <ConfirmDelete onConfirm={onDelete} />}
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
