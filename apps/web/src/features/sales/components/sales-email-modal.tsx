import { saleEmailListInputSchema } from '@back-office/contract/sales';
import { BulkEmailDialog } from '../../../components/bulk-email-dialog.tsx';
import {
  previewSaleSubscribersEmail,
  testSaleSubscribersEmail,
  useEmailSaleSubscribers,
} from '../api/email-sale-subscribers.ts';
import type { SalesEmailFilters } from '../sales-filters.ts';

/**
 * §5: subject required, at least 4 characters ("Subject is required"); message required ("Message is
 * required"): the rules and texts of the contract's `saleEmailListInputSchema`, as the server checks them.
 */
const salesEmailSchema = saleEmailListInputSchema.pick({ subject: true, message: true });

type SalesEmailModalProps = {
  opened: boolean;
  /** The filters of the search whose sales' subscribers are emailed. */
  filters: SalesEmailFilters;
  onClose: () => void;
};

/**
 * The Email Subscribers dialog of the Sales list (part 2 §2.5, §3 "Sales email-list payload", §5, §8):
 * the shared bulk-email dialog, previewing, testing and sending `POST /api/sales/email/list` with the
 * search's filters and the trimmed subject; "Please complete all the information!" after an invalid Send.
 */
export function SalesEmailModal({ opened, filters, onClose }: SalesEmailModalProps) {
  const emailSubscribers = useEmailSaleSubscribers();
  return (
    <BulkEmailDialog
      opened={opened}
      schema={salesEmailSchema}
      previewKey={['sales', filters]}
      onPreview={(content, signal) => previewSaleSubscribersEmail({ ...filters, ...content }, signal)}
      onTestSend={({ subject, message }) =>
        testSaleSubscribersEmail({ ...filters, subject: subject.trim(), message })
      }
      onSend={({ subject, message }) =>
        emailSubscribers.mutateAsync({ ...filters, subject: subject.trim(), message })
      }
      showIncompleteAlert
      onClose={onClose}
    />
  );
}
