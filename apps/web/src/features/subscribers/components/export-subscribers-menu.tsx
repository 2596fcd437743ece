import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconFileExport } from '@tabler/icons-react';
import { exportFailureReason, type SearchMatches } from '../../../entities/exports/index.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useExportSubscribers } from '../api/export-subscribers.ts';
import type { SubscriberFilters } from '../subscriber-filters.ts';

type ExportSubscribersMenuProps = {
  /** The filters of the current search (the export holds every match). */
  filters: SubscriberFilters;
  /** What that search matched: above the inline limit, or estimated, the export runs in the background. */
  matches: SearchMatches;
};

/**
 * The Export... dropdown of the subscribers search (part 2 §2.1, §7 `GET /api/subscribers/export`):
 * Export All Details and Export Email Addresses, saved as subscribers-export.xlsx; a large one is written
 * in the background (contract `exports`, with its progress in a notification); busy until the file has
 * arrived; "exporting the subscribers" on failure (§8).
 */
export function ExportSubscribersMenu({ filters, matches }: ExportSubscribersMenuProps) {
  const exportSubscribers = useExportSubscribers({
    onError: (error) => notifyError('exporting the subscribers', exportFailureReason(error)),
  });
  const handleExport = (emailsOnly: boolean) => {
    exportSubscribers.mutate({ filters, emailsOnly, matches });
  };
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconFileExport size={16} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          loading={exportSubscribers.isPending}
        >
          Export...
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => handleExport(false)}>Export All Details</Menu.Item>
        <Menu.Item onClick={() => handleExport(true)}>Export Email Addresses</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
