import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconFileExport, IconPlus, IconTrash } from '@tabler/icons-react';
import { exportFailureReason } from '../../../entities/exports/index.ts';
import { notifyError } from '../../../lib/notify.ts';
import { type ExportDonationsInput, useExportDonations } from '../api/export-donations.ts';

type DonationsToolbarProps = {
  /** What Export sends (the search's filters, the subscriber, what they matched), without `detailed`. */
  exportInput: () => Omit<ExportDonationsInput, 'detailed'>;
  selectedCount: number;
  deleting: boolean;
  onDeleteSelected: () => void;
  /** Opens the Add New Donation dialog; the button shows only with a subscriber (part 2 §2.4). */
  onAdd?: (() => void) | undefined;
};

/**
 * The donations toolbar (part 2 §2.4): an Export dropdown (Export Donations = the details spreadsheet,
 * Export Addresses = one row per donor), Delete Selected Donations (disabled unless a row is selected)
 * and, with a subscriber, Add New Donation. A large export is written in the background (contract
 * `exports`, with its progress in a notification). An export failure says "getting the donation
 * receipt" (part 2 §8: that message is also used for export failure).
 */
export function DonationsToolbar({
  exportInput,
  selectedCount,
  deleting,
  onDeleteSelected,
  onAdd,
}: DonationsToolbarProps) {
  const exportDonations = useExportDonations({
    onError: (error) => notifyError('getting the donation receipt', exportFailureReason(error)),
  });
  const handleExport = (detailed: boolean) => {
    exportDonations.mutate({ ...exportInput(), detailed });
  };
  return (
    <>
      <Menu position="bottom-end" shadow="md" width={200}>
        <Menu.Target>
          <Button
            variant="default"
            leftSection={<IconFileExport size={16} aria-hidden />}
            rightSection={<IconChevronDown size={14} aria-hidden />}
            loading={exportDonations.isPending}
          >
            Export
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => handleExport(true)}>Export Donations</Menu.Item>
          <Menu.Item onClick={() => handleExport(false)}>Export Addresses</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Button
        variant="light"
        color="red"
        leftSection={<IconTrash size={16} aria-hidden />}
        disabled={selectedCount === 0}
        loading={deleting}
        onClick={onDeleteSelected}
      >
        Delete Selected Donations
      </Button>
      {onAdd ? (
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={onAdd}>
          Add New Donation
        </Button>
      ) : null}
    </>
  );
}
