import { subscriberEmailListInputSchema } from '@back-office/contract/subscribers';
import { Text } from '@mantine/core';
import { BulkEmailDialog } from '../../../components/bulk-email-dialog.tsx';
import {
  previewSubscribersEmail,
  testSubscribersEmail,
  useEmailSubscribers,
} from '../api/email-subscribers.ts';
import { type SubscriberFilters, subscriberEmailFilters } from '../subscriber-filters.ts';

const emailFormSchema = subscriberEmailListInputSchema.pick({ subject: true, message: true });

type EmailSubscribersModalProps = {
  opened: boolean;
  /** The filters of the current search: the email goes to every match with an email address. */
  filters: SubscriberFilters;
  onClose: () => void;
};

/**
 * The Email Subscribers dialog of the subscribers search (part 2 §2.1, §3 "Subscriber email-list
 * payload", §5): the shared bulk-email dialog, previewing, testing and sending
 * `POST /api/subscribers/email/list` with the current search's filters; a line says which placeholders
 * each subscriber's own values replace.
 */
export function EmailSubscribersModal({ opened, filters, onClose }: EmailSubscribersModalProps) {
  const emailSubscribers = useEmailSubscribers();
  const emailFilters = subscriberEmailFilters(filters);
  return (
    <BulkEmailDialog
      opened={opened}
      schema={emailFormSchema}
      previewKey={['subscribers', emailFilters]}
      onPreview={(content, signal) => previewSubscribersEmail({ ...emailFilters, ...content }, signal)}
      onTestSend={(content) => testSubscribersEmail({ ...emailFilters, ...content })}
      onSend={(content) => emailSubscribers.mutateAsync({ ...emailFilters, ...content })}
      hint={
        <Text size="xs" c="dimmed">
          {'{title}'}, {'{firstName}'} and {'{lastName}'} are replaced by each subscriber's own.
        </Text>
      }
      onClose={onClose}
    />
  );
}
