import { type Mandate, type MandateType, mandateSchema } from '@back-office/contract/mandates';
import { Button, Group, NativeSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { z } from 'zod';
import { DateField } from '../../../components/date-field.tsx';
import { FormModal } from '../../../components/form-modal.tsx';
import { IncompleteFormAlert } from '../../../components/incomplete-form-alert.tsx';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { organisationToday } from '../../../lib/calendar.ts';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useSaveMandate } from '../api/save-mandate.ts';
import { formatIban, MANDATE_TYPE_LABELS } from '../mandate-format.ts';

/** The form's values as typed; `signedOn` is `YYYY-MM-DD` (typed `dd/mm/yyyy`). */
type MandateFormValues = { rum: string; iban: string; bic: string; signedOn: string; type: MandateType };

/** The contract's rules, and a date of signature that is required and not after today. */
const mandateFormSchema = z.object({
  rum: mandateSchema.shape.rum,
  iban: mandateSchema.shape.iban,
  bic: mandateSchema.shape.bic,
  signedOn: z
    .string()
    .min(1, { message: 'The date of signature is required.', abort: true })
    .pipe(mandateSchema.shape.signedOn)
    .refine((day) => day <= organisationToday(), {
      message: 'The date of signature cannot be in the future.',
    }),
  type: mandateSchema.shape.type,
});

const TYPE_OPTIONS = Object.entries(MANDATE_TYPE_LABELS).map(([value, label]) => ({ value, label }));

type MandateFormModalProps = {
  /** Whose mandate it is. */
  subscriberId: number;
  /** The mandate to edit, `'new'` to add one, null when closed. */
  mandate: Mandate | 'new' | null;
  /** After a save, once the list is refreshed (the subscriber's record changed too). */
  onSaved: () => void;
  onClose: () => void;
};

/**
 * Adds or edits a SEPA mandate: RUM, IBAN (any spacing and case), BIC (optional), date of signature
 * (`dd/mm/yyyy`, not in the future) and type, checked as the server checks them. The dialog stays
 * open with a busy button until the server answers; its refusals (a RUM taken) show under the field.
 */
export function MandateFormModal({ subscriberId, mandate, onSaved, onClose }: MandateFormModalProps) {
  const [busy, setBusy] = useState(false);
  return (
    <FormModal
      opened={mandate !== null}
      title={mandate === 'new' ? 'Add a mandate' : 'Edit the mandate'}
      busy={busy}
      onClose={onClose}
    >
      {mandate ? (
        <MandateForm
          subscriberId={subscriberId}
          mandate={mandate}
          onDone={onClose}
          onSaved={onSaved}
          onBusyChange={setBusy}
        />
      ) : null}
    </FormModal>
  );
}

function MandateForm({
  subscriberId,
  mandate,
  onDone,
  onSaved,
  onBusyChange,
}: {
  subscriberId: number;
  mandate: Mandate | 'new';
  onDone: () => void;
  onSaved: () => void;
  onBusyChange: (busy: boolean) => void;
}) {
  const save = useSaveMandate();
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const blurGuard = useBlurValidationGuard();
  const form = useForm<MandateFormValues>({
    initialValues:
      mandate === 'new'
        ? { rum: '', iban: '', bic: '', signedOn: organisationToday(), type: 'recurring' }
        : {
            rum: mandate.rum,
            iban: formatIban(mandate.iban),
            bic: mandate.bic ?? '',
            signedOn: mandate.signedOn,
            type: mandate.type,
          },
    validate: schemaValidator(mandateFormSchema),
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });
  const serverError = useServerErrorBanner();

  const handleSubmit = form.onSubmit(
    async (values) => {
      setSubmittedInvalid(false);
      serverError.clear();
      const parsed = mandateFormSchema.parse(values);
      onBusyChange(true);
      try {
        const saved = await save.mutateAsync(
          mandate === 'new'
            ? { subscriberId, values: parsed }
            : { subscriberId, id: mandate.id, values: parsed },
        );
        onBusyChange(false);
        notifySuccess(
          mandate === 'new' ? `The mandate ${saved.rum} was added.` : `The mandate ${saved.rum} was saved.`,
        );
        onSaved();
        onDone();
      } catch (error) {
        onBusyChange(false);
        if (!serverError.show(error, form.setFieldError)) notifyError('saving the mandate');
      }
    },
    () => setSubmittedInvalid(true),
  );

  return (
    <form
      ref={serverError.formRef}
      onSubmit={handleSubmit}
      noValidate
      aria-label={mandate === 'new' ? 'Add a mandate' : 'Edit the mandate'}
      {...blurGuard.formProps}
    >
      <Stack gap="md">
        <TextInput
          label="RUM (mandate reference)"
          description="Up to 35 letters, digits, spaces and / - ? : ( ) . , ' +"
          withAsterisk
          maxLength={35}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
          {...form.getInputProps('rum')}
        />
        <TextInput
          label="IBAN"
          withAsterisk
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="characters"
          {...form.getInputProps('iban')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" verticalSpacing="md">
          <TextInput
            label="BIC"
            autoComplete="off"
            spellCheck={false}
            autoCapitalize="characters"
            maxLength={11}
            {...form.getInputProps('bic')}
          />
          <NativeSelect label="Type" data={TYPE_OPTIONS} {...form.getInputProps('type')} />
        </SimpleGrid>
        <DateField
          label="Signed on"
          withAsterisk
          clearable={false}
          {...form.getInputProps('signedOn')}
          value={form.values.signedOn}
          onChange={(value) => form.setFieldValue('signedOn', value)}
        />
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
