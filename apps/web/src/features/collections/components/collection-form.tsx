import { createCollectionSchema } from '@back-office/contract/collections';
import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { DateField } from '../../../components/date-field.tsx';
import { IncompleteFormAlert } from '../../../components/incomplete-form-alert.tsx';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { paths } from '../../../config/paths.ts';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCreateCollection } from '../api/create-collection.ts';
import { collectionName, debitCountText, formatEuros, refusalReason } from '../collection-format.ts';

/** The due date as picked or typed, `YYYY-MM-DD`, `''` while empty; then checked as the server checks it. */
const collectionFormSchema = z.object({
  dueDate: z
    .string()
    .min(1, { message: 'The due date is required.' })
    .pipe(createCollectionSchema.shape.dueDate),
});

/**
 * Builds the draft collection of a due date (Administrators; not in the spec; docs/decisions/029):
 * the installments of the active recurring gifts due that day. The day is typed `dd/mm/yyyy` or
 * picked; the server refuses one sooner than today plus the pre-notification days of the settings, and
 * its sentence (naming the earliest day allowed) shows under the field; missing settings are said in
 * an error toast. A toast says how many debits the draft holds, then its screen opens for review.
 */
export function CollectionForm() {
  const create = useCreateCollection();
  const navigate = useNavigate();
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const blurGuard = useBlurValidationGuard();
  const form = useForm<{ dueDate: string }>({
    initialValues: { dueDate: '' },
    validate: schemaValidator(collectionFormSchema),
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });
  const serverError = useServerErrorBanner();

  const handleSubmit = form.onSubmit(
    async (values) => {
      setSubmittedInvalid(false);
      serverError.clear();
      try {
        const collection = await create.mutateAsync(collectionFormSchema.parse(values));
        notifySuccess(
          `The draft of ${collectionName(collection.dueDate)} holds ${debitCountText(collection.count)} (${formatEuros(collection.total)}).`,
        );
        void navigate(paths.collection.href(collection.id));
      } catch (error) {
        if (!serverError.show(error, form.setFieldError)) {
          notifyError('building the collection', refusalReason(error));
        }
      }
    },
    () => setSubmittedInvalid(true),
  );

  return (
    <form
      ref={serverError.formRef}
      onSubmit={handleSubmit}
      noValidate
      aria-label="Build a collection"
      {...blurGuard.formProps}
    >
      <Stack gap="md">
        <DateField
          label="Due date"
          description="At least the pre-notification days of the settings (14 by default) after today."
          withAsterisk
          {...form.getInputProps('dueDate')}
          value={form.values.dueDate}
          onChange={(value) => form.setFieldValue('dueDate', value)}
          maw={320}
        />
        <IncompleteFormAlert show={submittedInvalid && !form.isValid()} />
        {serverError.banner}
        <Group>
          <Button type="submit" loading={create.isPending}>
            Build the collection
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
