import type { AuditEvent } from '@back-office/contract/audit';
import { Button, Text } from '@mantine/core';
import {
  type InfiniteList,
  InfiniteTable,
  type InfiniteTableColumn,
} from '../../../components/infinite-table.tsx';
import {
  auditActionText,
  auditActorText,
  auditChangeLines,
  auditDateTimeText,
  auditEntityKindText,
} from '../audit-format.ts';

export const NO_AUDIT_EVENTS_MESSAGE = 'No changes match the search criteria.';

const columns: InfiniteTableColumn<AuditEvent>[] = [
  { key: 'date', header: 'Date', width: 160, render: (event) => auditDateTimeText(event.occurredAt) },
  {
    key: 'who',
    header: 'Who',
    width: '14%',
    render: (event) => <span title={event.actor?.email ?? undefined}>{auditActorText(event)}</span>,
  },
  { key: 'action', header: 'Action', width: 140, render: (event) => auditActionText(event.action) },
  {
    key: 'record',
    header: 'Record',
    width: '20%',
    render: (event) => (
      <span title={`${auditEntityKindText(event)}: ${event.entityLabel}`}>
        <Text span size="sm" c="dimmed">
          {auditEntityKindText(event)}
        </Text>{' '}
        {event.entityLabel}
      </span>
    ),
  },
  {
    key: 'changes',
    header: 'Changes (before → after)',
    render: (event) => {
      const lines = auditChangeLines(event);
      if (lines.length === 0)
        return (
          <Text span size="sm" c="dimmed">
            —
          </Text>
        );
      const text = lines.join('; ');
      return <span title={lines.join('\n')}>{text}</span>;
    },
  },
];

type AuditTableProps = {
  list: InfiniteList<AuditEvent>;
  /** Opens the full before/after of one event. */
  onShowDetails: (event: AuditEvent) => void;
};

/**
 * The audit events, newest first, 50 a page with infinite scroll: date and time (`dd/MM/yyyy HH:mm`),
 * who, the action, the record (its kind and name at the time), the changed fields as
 * `Field: before → after` on one line, and Details for the full values.
 */
export function AuditTable({ list, onShowDetails }: AuditTableProps) {
  return (
    <InfiniteTable
      list={list}
      columns={columns}
      label="Audit events"
      rowActions={(event) => (
        <Button
          size="xs"
          variant="light"
          aria-label={`Details of the change to ${event.entityLabel}`}
          onClick={() => onShowDetails(event)}
        >
          Details
        </Button>
      )}
      actionsWidth={110}
      emptyMessage={NO_AUDIT_EVENTS_MESSAGE}
    />
  );
}
