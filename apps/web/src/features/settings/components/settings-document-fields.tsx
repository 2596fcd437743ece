import { DOCUMENT_RETENTION_YEARS, INACTIVITY_REPORT_YEARS } from '@back-office/contract/personal-data';
import type { Settings } from '@back-office/contract/settings';
import { NumberInput, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';

/**
 * The texts of receipts and invoices: the signatory of receipts, the receipt's legal
 * statement, the invoice footer (legal mentions) and the payment terms; and how many years issued
 * documents are kept as issued (docs/decisions/019); after how many years without activity a subscriber
 * is listed as inactive on the Duplicates screen (GDPR art. 5(1)(e)).
 */
export function SettingsDocumentFields({ form }: { form: UseFormReturnType<Settings> }) {
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Signatory name" autoComplete="off" {...form.getInputProps('signatoryName')} />
        <TextInput label="Signatory title" autoComplete="off" {...form.getInputProps('signatoryTitle')} />
      </SimpleGrid>
      <Textarea
        label="Receipt legal statement"
        autosize
        minRows={3}
        maxRows={8}
        {...form.getInputProps('receiptStatement')}
      />
      <Textarea
        label="Invoice footer"
        description="Legal mentions printed at the bottom of invoices."
        autosize
        minRows={3}
        maxRows={8}
        {...form.getInputProps('invoiceFooter')}
      />
      <Textarea
        label="Payment terms text"
        autosize
        minRows={2}
        maxRows={6}
        {...form.getInputProps('paymentTermsText')}
      />
      <NumberInput
        label="Document retention (years)"
        description="Issued receipts and invoices are kept as issued this long; then what they still show of an anonymised subscriber is removed."
        allowDecimal={false}
        allowNegative={false}
        min={DOCUMENT_RETENTION_YEARS.min}
        max={DOCUMENT_RETENTION_YEARS.max}
        maw={320}
        {...form.getInputProps('documentRetentionYears')}
      />
      <NumberInput
        label="Inactivity report (years)"
        description="Subscribers without a change, donation or sale for this long are listed as inactive on the Duplicates screen."
        allowDecimal={false}
        allowNegative={false}
        min={INACTIVITY_REPORT_YEARS.min}
        max={INACTIVITY_REPORT_YEARS.max}
        maw={320}
        {...form.getInputProps('inactivityReportYears')}
      />
    </Stack>
  );
}
