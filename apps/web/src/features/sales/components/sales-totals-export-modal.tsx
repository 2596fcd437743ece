import { Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { DateField } from '../../../components/date-field.tsx';
import { FormModal } from '../../../components/form-modal.tsx';
import { exportRefusedReason } from '../../../lib/api-error.ts';
import { organisationYear } from '../../../lib/calendar.ts';
import { useCsvDialect } from '../../../lib/csv-dialect.ts';
import { localIsoDate } from '../../../lib/download.ts';
import { notifyError } from '../../../lib/notify.ts';
import { type SalesTotalsPeriod, useExportSalesTotals } from '../api/export-sales-totals.ts';

/** The period offered first: from the first of January of this year to today. */
export function defaultSalesTotalsPeriod(today: Date = new Date()): SalesTotalsPeriod {
  return { from: `${organisationYear(today)}-01-01`, to: localIsoDate(today) };
}

/** Both days are needed, the first not after the last (`GET /api/sales/salecount?from&to`). */
export function validateSalesTotalsPeriod(
  period: SalesTotalsPeriod,
): Partial<Record<keyof SalesTotalsPeriod, string>> {
  const errors: Partial<Record<keyof SalesTotalsPeriod, string>> = {};
  if (!period.from) errors.from = 'The first day is required';
  if (!period.to) errors.to = 'The last day is required';
  if (period.from && period.to && period.from > period.to) {
    errors.to = 'The last day must not be before the first day';
  }
  return errors;
}

type SalesTotalsExportModalProps = { opened: boolean; onClose: () => void };

/**
 * Export Sales Totals (part 2 §2.5, §7 `GET /api/sales/salecount?from&to`, §8 "getting the sales
 * totals"): asks for the period (both days included), then downloads `sales totals (from-to).csv` in
 * the CSV format chosen in the Export menu.
 */
export function SalesTotalsExportModal({ opened, onClose }: SalesTotalsExportModalProps) {
  const [busy, setBusy] = useState(false);
  return (
    <FormModal opened={opened} title="Export Sales Totals" busy={busy} onClose={onClose}>
      {opened ? <SalesTotalsExportForm onDone={onClose} onBusyChange={setBusy} /> : null}
    </FormModal>
  );
}

function SalesTotalsExportForm({
  onDone,
  onBusyChange,
}: {
  onDone: () => void;
  onBusyChange: (busy: boolean) => void;
}) {
  const exportTotals = useExportSalesTotals();
  const [dialect] = useCsvDialect();
  const form = useForm<SalesTotalsPeriod>({
    initialValues: defaultSalesTotalsPeriod(),
    validate: validateSalesTotalsPeriod,
  });

  const handleSubmit = form.onSubmit(async (period) => {
    onBusyChange(true);
    try {
      await exportTotals.mutateAsync({ ...period, dialect });
    } catch (error) {
      onBusyChange(false);
      notifyError('getting the sales totals', exportRefusedReason(error));
      return;
    }
    onBusyChange(false);
    onDone();
  });

  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Per product, the items sold and their amount in each currency over the period (both days included).
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <DateField
            label="From"
            value={form.values.from}
            onChange={(value) => form.setFieldValue('from', value)}
            error={form.errors.from}
            clearable={false}
          />
          <DateField
            label="To"
            value={form.values.to}
            onChange={(value) => form.setFieldValue('to', value)}
            error={form.errors.to}
            clearable={false}
          />
        </SimpleGrid>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={exportTotals.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={exportTotals.isPending}>
            Export
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
