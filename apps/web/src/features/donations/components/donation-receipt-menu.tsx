import type { DonationListItem } from '@back-office/contract/donations';
import { Button, Menu } from '@mantine/core';
import { IconChevronDown, IconDownload, IconMail } from '@tabler/icons-react';
import { receiptRefusedReason } from '../../../lib/api-error.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useDownloadDonationReceipt } from '../api/download-donation-receipt.ts';
import { useEmailDonationReceipt } from '../api/email-donation-receipt.ts';

/** Part 2 §8: the success toast of Email. */
export const RECEIPT_EMAILED_MESSAGE = 'Donation receipt was emailed successfully!';

/**
 * A donation row's Receipt dropdown (part 2 §2.4): Download (`donation-{id}-receipt.pdf`) and Email,
 * the latter only when the donor has an email address; busy while the server works; §8 toasts.
 */
export function DonationReceiptMenu({ donation }: { donation: DonationListItem }) {
  const download = useDownloadDonationReceipt();
  const email = useEmailDonationReceipt();

  const handleDownload = () => {
    download.mutate(donation.id, {
      onError: (error) => notifyError('getting the donation receipt', receiptRefusedReason(error)),
    });
  };
  const handleEmail = () => {
    email.mutate(donation.id, {
      onSuccess: () => notifySuccess(RECEIPT_EMAILED_MESSAGE),
      onError: (error) => notifyError('emailing the donation receipt', receiptRefusedReason(error)),
    });
  };

  return (
    <Menu position="bottom-end" shadow="md" width={160} withinPortal>
      <Menu.Target>
        <Button
          size="xs"
          variant="light"
          loading={download.isPending || email.isPending}
          rightSection={<IconChevronDown size={14} aria-hidden />}
        >
          Receipt
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconDownload size={16} aria-hidden />} onClick={handleDownload}>
          Download
        </Menu.Item>
        {donation.hasEmail ? (
          <Menu.Item leftSection={<IconMail size={16} aria-hidden />} onClick={handleEmail}>
            Email
          </Menu.Item>
        ) : null}
      </Menu.Dropdown>
    </Menu>
  );
}
