import type { Mandate } from '@back-office/contract/mandates';
import { type Plan, type PlanFrequency, planChangesSchema, planSchema } from '@back-office/contract/plans';
import { Button, Group, NativeSelect, SimpleGrid, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { z } from 'zod';
import { CurrencyInput } from '../../../components/currency-input.tsx';
import { DateField } from '../../../components/date-field.tsx';
import { FormModal } from '../../../components/form-modal.tsx';
import { IncompleteFormAlert } from '../../../components/incomplete-form-alert.tsx';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { useNotifyReferenceListError, useReferenceList } from '../../../entities/reference-lists/index.ts';
import { organisationToday } from '../../../lib/calendar.ts';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useSavePlan } from '../api/save-plan.ts';
import { formatEuros, PLAN_FREQUENCY_LABELS } from '../plan-format.ts';

/** What the form needs of a mandate. */
export type PlanMandateOption = Pick<Mandate, 'id' | 'rum' | 'status' | 'type'>;

/**
 * The form's values as typed: `amount` euros (`''` while empty), selects as text (`''`: none), dates
 * `YYYY-MM-DD` (typed `dd/mm/yyyy`; `endOn` `''` for none).
 */
type PlanFormValues = {
  amount: number | '';
  frequency: PlanFrequency;
  dayOfMonth: string;
  startOn: string;
  endOn: string;
  mandateId: string;
  categoryId: string;
};

const { shape } = planSchema;
/** `endOn` and `categoryId` with null for none (the creation's also take undefined). */
const endOnSchema = planChangesSchema.shape.endOn.unwrap();
const categoryIdSchema = planChangesSchema.shape.categoryId.unwrap();

/** The contract's rules over the form's values, giving the body of the request. */
const planFormSchema = z
  .object({
    amount: shape.amount,
    frequency: shape.frequency,
    dayOfMonth: z.string().transform(Number).pipe(shape.dayOfMonth),
    startOn: z.string().min(1, { message: 'The start date is required.', abort: true }).pipe(shape.startOn),
    endOn: z
      .string()
      .transform((value) => (value === '' ? null : value))
      .pipe(endOnSchema),
    mandateId: z
      .string()
      .min(1, { message: 'Choose the mandate.', abort: true })
      .transform(Number)
      .pipe(shape.mandateId),
    categoryId: z
      .string()
      .transform((value) => (value === '' ? null : Number(value)))
      .pipe(categoryIdSchema),
  })
  .refine((plan) => plan.endOn === null || plan.endOn >= plan.startOn, {
    message: 'The end date cannot be before the start date.',
    path: ['endOn'],
  });

const FREQUENCY_OPTIONS = Object.entries(PLAN_FREQUENCY_LABELS).map(([value, label]) => ({ value, label }));
const DAY_OPTIONS = Array.from({ length: 28 }, (_, index) => String(index + 1));

type PlanFormModalProps = {
  subscriberId: number;
  /** The subscriber's mandates: the active recurring ones can be chosen. */
  mandates: PlanMandateOption[];
  /** The plan to edit, `'new'` to add one, null when closed. */
  plan: Plan | 'new' | null;
  /** After a save, once the list is refreshed (the subscriber's history changed too). */
  onSaved: () => void;
  onClose: () => void;
};

/**
 * Adds or edits a recurring gift: amount (euros, French format), frequency, day of the month (1 to
 * 28), start and end dates (`dd/mm/yyyy`, end optional), mandate (among the subscriber's active
 * recurring mandates; an edited plan keeps showing its own) and category (optional, from the
 * reference list), checked as the server checks them. The server's refusals show under the field.
 */
export function PlanFormModal({ subscriberId, mandates, plan, onSaved, onClose }: PlanFormModalProps) {
  const [busy, setBusy] = useState(false);
  return (
    <FormModal
      opened={plan !== null}
      title={plan === 'new' ? 'Add a recurring gift' : 'Edit the recurring gift'}
      busy={busy}
      onClose={onClose}
    >
      {plan ? (
        <PlanForm
          subscriberId={subscriberId}
          mandates={mandates}
          plan={plan}
          onDone={onClose}
          onSaved={onSaved}
          onBusyChange={setBusy}
        />
      ) : null}
    </FormModal>
  );
}

function PlanForm({
  subscriberId,
  mandates,
  plan,
  onDone,
  onSaved,
  onBusyChange,
}: {
  subscriberId: number;
  mandates: PlanMandateOption[];
  plan: Plan | 'new';
  onDone: () => void;
  onSaved: () => void;
  onBusyChange: (busy: boolean) => void;
}) {
  const save = useSavePlan();
  const categories = useReferenceList('cats', { sort: 'name' });
  useNotifyReferenceListError('cats', categories.isError);
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const blurGuard = useBlurValidationGuard();
  const usable = mandates.filter(
    (mandate) =>
      (mandate.status === 'active' && mandate.type === 'recurring') ||
      (plan !== 'new' && mandate.id === plan.mandateId),
  );
  const onlyMandate = usable.length === 1 ? usable[0] : undefined;
  const form = useForm<PlanFormValues>({
    initialValues:
      plan === 'new'
        ? {
            amount: '',
            frequency: 'monthly',
            dayOfMonth: '5',
            startOn: organisationToday(),
            endOn: '',
            mandateId: onlyMandate ? String(onlyMandate.id) : '',
            categoryId: '',
          }
        : {
            amount: plan.amount,
            frequency: plan.frequency,
            dayOfMonth: String(plan.dayOfMonth),
            startOn: plan.startOn,
            endOn: plan.endOn ?? '',
            mandateId: String(plan.mandateId),
            categoryId: plan.categoryId === undefined ? '' : String(plan.categoryId),
          },
    validate: schemaValidator(planFormSchema),
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });
  const serverError = useServerErrorBanner();

  const mandateOptions = [
    { value: '', label: usable.length === 0 ? 'No active recurring mandate' : 'Choose a mandate' },
    ...usable.map((mandate) => ({
      value: String(mandate.id),
      label: mandate.status === 'active' ? mandate.rum : `${mandate.rum} (${mandate.status})`,
    })),
  ];
  const categoryOptions = [
    { value: '', label: 'None' },
    ...(categories.data ?? []).map((item) => ({ value: String(item.id), label: item.name })),
  ];

  const handleSubmit = form.onSubmit(
    async (values) => {
      setSubmittedInvalid(false);
      serverError.clear();
      const parsed = planFormSchema.parse(values);
      onBusyChange(true);
      try {
        const saved = await save.mutateAsync(
          plan === 'new' ? { subscriberId, values: parsed } : { subscriberId, id: plan.id, values: parsed },
        );
        onBusyChange(false);
        notifySuccess(
          plan === 'new'
            ? `The recurring gift of ${formatEuros(saved.amount)} was added.`
            : `The recurring gift of ${formatEuros(saved.amount)} was saved.`,
        );
        onSaved();
        onDone();
      } catch (error) {
        onBusyChange(false);
        if (!serverError.show(error, form.setFieldError)) notifyError('saving the recurring gift');
      }
    },
    () => setSubmittedInvalid(true),
  );

  const title = plan === 'new' ? 'Add a recurring gift' : 'Edit the recurring gift';
  return (
    <form
      ref={serverError.formRef}
      onSubmit={handleSubmit}
      noValidate
      aria-label={title}
      {...blurGuard.formProps}
    >
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
          <CurrencyInput
            label="Amount"
            prefix="€"
            withAsterisk
            data-autofocus
            {...form.getInputProps('amount')}
          />
          <NativeSelect label="Frequency" data={FREQUENCY_OPTIONS} {...form.getInputProps('frequency')} />
        </SimpleGrid>
        <NativeSelect
          label="Day of the month"
          description="1 to 28, so that every month has it"
          data={DAY_OPTIONS}
          {...form.getInputProps('dayOfMonth')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
          <DateField
            label="From"
            withAsterisk
            clearable={false}
            {...form.getInputProps('startOn')}
            value={form.values.startOn}
            onChange={(value) => form.setFieldValue('startOn', value)}
          />
          <DateField
            label="To"
            description="Empty: until ended"
            {...form.getInputProps('endOn')}
            value={form.values.endOn}
            onChange={(value) => form.setFieldValue('endOn', value)}
          />
        </SimpleGrid>
        <NativeSelect
          label="Mandate"
          withAsterisk
          data={mandateOptions}
          {...form.getInputProps('mandateId')}
        />
        <NativeSelect label="Category" data={categoryOptions} {...form.getInputProps('categoryId')} />
        <IncompleteFormAlert show={submittedInvalid && !form.isValid()} />
        {serverError.banner}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
