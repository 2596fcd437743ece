import type { AuditEvent } from '@back-office/contract/audit';
import { Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import {
  auditActionText,
  auditActorText,
  auditDateTimeText,
  auditEntityKindText,
  auditFieldChanges,
} from '../audit-format.ts';

type AuditEventDetailsProps = {
  opened: boolean;
  /** The event shown; kept while the dialog fades out so its content does not vanish first. */
  event: AuditEvent | null;
  onClose: () => void;
};

/**
 * One audit event in full: when, who (with their email), what, and every recorded field with its value
 * before and after, long texts unshortened.
 */
export function AuditEventDetails({ opened, event, onClose }: AuditEventDetailsProps) {
  const changes = event ? auditFieldChanges(event) : [];
  const withBefore = Boolean(event?.before);
  const withAfter = Boolean(event?.after);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Change details"
      size="lg"
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      {event ? (
        <Stack gap="sm">
          <Text size="sm">
            <strong>{auditActionText(event.action)}</strong> {auditEntityKindText(event).toLowerCase()}{' '}
            <strong>{event.entityLabel}</strong> on {auditDateTimeText(event.occurredAt)} by{' '}
            {auditActorText(event)}
            {event.actor?.email && event.actor.email !== event.actor.name ? ` (${event.actor.email})` : ''}
          </Text>
          {changes.length === 0 ? (
            <Text size="sm" c="dimmed">
              No values are recorded for this change.
            </Text>
          ) : (
            <Table
              withTableBorder
              withColumnBorders
              aria-label="Changed fields"
              style={{ tableLayout: 'fixed' }}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w="25%">Field</Table.Th>
                  {withBefore ? <Table.Th>Before</Table.Th> : null}
                  {withAfter ? <Table.Th>After</Table.Th> : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {changes.map((change) => (
                  <Table.Tr key={change.field}>
                    <Table.Td>{change.label}</Table.Td>
                    {withBefore ? <Table.Td style={cellStyle}>{change.before}</Table.Td> : null}
                    {withAfter ? <Table.Td style={cellStyle}>{change.after}</Table.Td> : null}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

// Multi-line settings (addresses, statements) keep their lines; long words wrap.
const cellStyle = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;
