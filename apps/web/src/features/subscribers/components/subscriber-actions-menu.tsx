import type { AnnualReceiptEmailed } from '@back-office/contract/donations';
import type { Subscriber } from '@back-office/contract/subscribers';
import { Button, Menu } from '@mantine/core';
import {
  IconChevronDown,
  IconCoin,
  IconFileDownload,
  IconFileText,
  IconFileZip,
  IconHistory,
  IconMail,
  IconShoppingCart,
  IconUserOff,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { isAdministrator, useCurrentUser } from '../../../entities/current-user/index.ts';
import { ApiError, receiptRefusedReason } from '../../../lib/api-error.ts';
import { organisationYear } from '../../../lib/calendar.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { downloadPersonalData } from '../api/download-personal-data.ts';
import {
  downloadAnnualReceipt,
  downloadRumLetter,
  emailAnnualReceipt,
  sendReturnedBrochureEmail,
} from '../api/subscriber-documents.ts';
import { AnonymiseSubscriberModal } from './anonymise-subscriber-modal.tsx';

/** §8 success texts of the Actions menu. */
export const ANNUAL_RECEIPT_EMAILED_MESSAGE = 'Annual donation receipt was emailed successfully!';
export const BROCHURE_EMAIL_SENT_MESSAGE = 'Missing brochure email sent successfully!';

const receipts = (count: number) => `${count} receipt${count === 1 ? '' : 's'}`;

/**
 * The §8 success text followed by what happened, e.g. "… 1 receipt issued, emailed to anne@example.org."
 * or "… 1 receipt already issued, sent again to anne@example.org."
 */
export function annualReceiptEmailedMessage(result: AnnualReceiptEmailed): string {
  const parts = [];
  if (result.issued > 0) parts.push(`${receipts(result.issued)} issued`);
  if (result.alreadyIssued > 0) parts.push(`${receipts(result.alreadyIssued)} already issued`);
  const sent = result.issued > 0 ? 'emailed' : 'sent again';
  return `${ANNUAL_RECEIPT_EMAILED_MESSAGE} ${parts.join(', ')}, ${sent} to ${result.emailedTo}.`;
}

type SubscriberActionsMenuProps = {
  /** The subscriber as last saved (id > 0). */
  subscriber: Subscriber;
  /** Symbol of the subscriber's currency, passed to the donations and sales screens (`sy`). */
  currencySymbol: string;
  /** Tells the screen a document or email is on its way (the Save button shows a spinner, §2.2). */
  onBusyChange: (busy: boolean) => void;
  /**
   * Called after an action that may have changed the record on the server (the RUM letter gives a
   * subscriber without a mandate reference a new one, and so a new version).
   */
  onRecordChanged?: () => void;
  /** The year receipts are offered for (§9: current and previous year); the clock's by default. */
  currentYear?: number;
};

/** Why a receipt could not be had, in words for people (from the server's error code), or undefined. */
function receiptReason(error: unknown, year: number): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.code === 'donations.none_for_year') return `There are no donations for ${year}.`;
  if (error.code === 'donations.donor_without_email') return 'The subscriber has no email address.';
  return receiptRefusedReason(error);
}

/**
 * The Actions menu of a saved subscriber (part 2 §2.2, §7, §8, §9): View Donations, View Sales,
 * Generate RUM Letter, the donation receipt of the current year and the receipt of the previous year
 * (download; email only when the subscriber has an email address), Send Returned Brochure Email (with
 * an email address), View History; for Administrators, the personal-data rights (GDPR art. 15, 17, 20;
 * docs/decisions/019): Download personal data (a ZIP) and Anonymise… (a confirmation asking the
 * reason, then back to the search).
 */
export function SubscriberActionsMenu({
  subscriber,
  currencySymbol,
  onBusyChange,
  onRecordChanged,
  currentYear = organisationYear(),
}: SubscriberActionsMenuProps) {
  const navigate = useNavigate();
  const administrator = isAdministrator(useCurrentUser());
  const [anonymising, setAnonymising] = useState(false);
  const previousYear = currentYear - 1;
  const hasEmail = subscriber.email.trim() !== '';
  const routeParams = {
    subid: subscriber.id,
    fn: subscriber.firstName,
    ln: subscriber.lastName,
    sy: currencySymbol,
  };

  const run = async (
    action: () => Promise<unknown>,
    success: string | null,
    failure: (error: unknown) => void,
  ) => {
    onBusyChange(true);
    try {
      await action();
      if (success) notifySuccess(success);
    } catch (error) {
      failure(error);
    } finally {
      onBusyChange(false);
    }
  };

  const handleRumLetter = () =>
    run(
      async () => {
        await downloadRumLetter(subscriber.id, subscriber.lastName);
        onRecordChanged?.();
      },
      null,
      // The server says in words what the settings lack for a mandate letter.
      (error) =>
        notifyError(
          'generating the RUM letter',
          error instanceof ApiError && error.code === 'subscribers.mandate_settings_missing'
            ? error.detail
            : undefined,
        ),
    );
  const handleDownloadReceipt = (year: number) =>
    run(
      () => downloadAnnualReceipt(subscriber.id, subscriber.lastName, year),
      null,
      // §8: the receipt download of this screen reports "exporting the subscribers" (spelt right).
      (error) => notifyError('exporting the subscribers', receiptReason(error, year)),
    );
  const handleEmailReceipt = (year: number) =>
    run(
      async () => notifySuccess(annualReceiptEmailedMessage(await emailAnnualReceipt(subscriber.id, year))),
      null,
      (error) => notifyError('emailing the donation receipt', receiptReason(error, year)),
    );
  const handleBrochureEmail = () =>
    run(
      () => sendReturnedBrochureEmail(subscriber.id),
      BROCHURE_EMAIL_SENT_MESSAGE,
      () => notifyError('sending the missing brochure email'),
    );

  const handlePersonalData = () =>
    run(
      () => downloadPersonalData(subscriber.id),
      null,
      () => notifyError('downloading the personal data'),
    );
  const handleAnonymised = () => {
    setAnonymising(false);
    void navigate(paths.subscribers.href());
  };

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button variant="default" rightSection={<IconChevronDown size={14} aria-hidden />}>
            Actions
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item
            leftSection={<IconCoin size={16} aria-hidden />}
            onClick={() => navigate(paths.donations.href(routeParams))}
          >
            View Donations
          </Menu.Item>
          <Menu.Item
            leftSection={<IconShoppingCart size={16} aria-hidden />}
            onClick={() => navigate(paths.sales.href(routeParams))}
          >
            View Sales
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item
            leftSection={<IconFileText size={16} aria-hidden />}
            onClick={() => void handleRumLetter()}
          >
            Generate RUM Letter
          </Menu.Item>
          <Menu.Label>Receipts</Menu.Label>
          <Menu.Item
            leftSection={<IconFileDownload size={16} aria-hidden />}
            onClick={() => void handleDownloadReceipt(currentYear)}
          >
            Download Donation Receipt ({currentYear})
          </Menu.Item>
          {hasEmail ? (
            <Menu.Item
              leftSection={<IconMail size={16} aria-hidden />}
              onClick={() => void handleEmailReceipt(currentYear)}
            >
              Email Donation Receipt ({currentYear})
            </Menu.Item>
          ) : null}
          <Menu.Item
            leftSection={<IconFileDownload size={16} aria-hidden />}
            onClick={() => void handleDownloadReceipt(previousYear)}
          >
            Download Receipt ({previousYear})
          </Menu.Item>
          {hasEmail ? (
            <Menu.Item
              leftSection={<IconMail size={16} aria-hidden />}
              onClick={() => void handleEmailReceipt(previousYear)}
            >
              Email Receipt ({previousYear})
            </Menu.Item>
          ) : null}
          {hasEmail ? (
            <>
              <Menu.Divider />
              <Menu.Item
                leftSection={<IconMail size={16} aria-hidden />}
                onClick={() => void handleBrochureEmail()}
              >
                Send Returned Brochure Email
              </Menu.Item>
            </>
          ) : null}
          <Menu.Divider />
          <Menu.Item
            leftSection={<IconHistory size={16} aria-hidden />}
            onClick={() => navigate(paths.subscriberHistory.href(subscriber.id))}
          >
            View History
          </Menu.Item>
          {administrator ? (
            <>
              <Menu.Label>Personal data</Menu.Label>
              <Menu.Item
                leftSection={<IconFileZip size={16} aria-hidden />}
                onClick={() => void handlePersonalData()}
              >
                Download personal data
              </Menu.Item>
              <Menu.Item
                color="red.9"
                leftSection={<IconUserOff size={16} aria-hidden />}
                onClick={() => setAnonymising(true)}
              >
                Anonymise…
              </Menu.Item>
            </>
          ) : null}
        </Menu.Dropdown>
      </Menu>
      <AnonymiseSubscriberModal
        subscriber={subscriber}
        opened={anonymising}
        onClose={() => setAnonymising(false)}
        onAnonymised={handleAnonymised}
      />
    </>
  );
}
