import {
  type ReferenceItem,
  type ReferenceItemInput,
  referenceItemInputSchemas,
} from '@back-office/contract/reference-lists';
import { Button, Group, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type FocusEvent, useState } from 'react';
import { FormModal } from '../../../components/form-modal.tsx';
import { IncompleteFormAlert } from '../../../components/incomplete-form-alert.tsx';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { schemaValidator, useBlurValidationGuard } from '../../../lib/form.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCreateReferenceItem } from '../api/create-reference-item.ts';
import { useUpdateReferenceItem } from '../api/update-reference-item.ts';
import type { ReferenceListConfig } from '../reference-list-configs.ts';

const NAME_TAKEN_MESSAGE = 'An item with this name already exists.';

type ReferenceItemFormValues = {
  name: string;
  symbol: string;
  directDebit: boolean;
  /** Empty for none (sent as null). */
  isoCode: string;
};

/** Puts the caret after the last character (part 1 §2: "Focusing the name input places the cursor at the end"). */
function moveCaretToEnd(input: HTMLInputElement): void {
  const end = input.value.length;
  input.setSelectionRange(end, end);
}

type ReferenceItemFormModalProps = {
  list: ReferenceListConfig;
  opened: boolean;
  /** The item being edited, or null to add a new one. */
  item: ReferenceItem | null;
  onClose: () => void;
};

/**
 * The Add New X / Edit X dialog of a reference list (part 1 §2 Reference-data lists, §4 Modal, §5,
 * §8): Name (its minimum length from the contract: 4, countries none, tags required only), Symbol for
 * currencies, Direct debit for payment methods, ISO code for countries and currencies (typed in
 * capitals); Save when adding, Update when editing; Cancel, the close icon and Escape close it. It
 * stays open until the server answers; a taken name shows under Name (part 1 §8), a taken ISO code
 * under ISO code.
 */
export function ReferenceItemFormModal({ list, opened, item, onClose }: ReferenceItemFormModalProps) {
  const [busy, setBusy] = useState(false);
  return (
    <FormModal opened={opened} title={item ? list.editTitle : list.addTitle} busy={busy} onClose={onClose}>
      <ReferenceItemForm
        key={item?.id ?? 'new'}
        list={list}
        item={item}
        onDone={onClose}
        onBusyChange={setBusy}
      />
    </FormModal>
  );
}

type ReferenceItemFormProps = {
  list: ReferenceListConfig;
  item: ReferenceItem | null;
  onDone: () => void;
  onBusyChange: (busy: boolean) => void;
};

function ReferenceItemForm({ list, item, onDone, onBusyChange }: ReferenceItemFormProps) {
  const createItem = useCreateReferenceItem(list);
  const updateItem = useUpdateReferenceItem(list);
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const blurGuard = useBlurValidationGuard();
  const schema = referenceItemInputSchemas[list.key];
  const form = useForm<ReferenceItemFormValues>({
    initialValues: {
      name: item?.name ?? '',
      symbol: item?.symbol ?? '',
      directDebit: item?.directDebit ?? false,
      isoCode: item?.isoCode ?? '',
    },
    validate: schemaValidator(schema),
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });
  const pending = createItem.isPending || updateItem.isPending;

  const serverError = useServerErrorBanner();
  const showServerRefusal = (error: unknown): boolean => {
    if (serverError.show(error, form.setFieldError)) return true;
    if (!(error instanceof ApiError) || error.code !== 'reference_lists.name_taken') return false;
    return serverError.showFields(
      [{ path: 'name', message: error.detail ?? NAME_TAKEN_MESSAGE }],
      form.setFieldError,
    );
  };

  const handleSubmit = form.onSubmit(
    async (values) => {
      setSubmittedInvalid(false);
      serverError.clear();
      const input: ReferenceItemInput = schema.parse(values);
      onBusyChange(true);
      try {
        const saved = item
          ? await updateItem.mutateAsync({ ...input, id: item.id })
          : await createItem.mutateAsync(input);
        notifySuccess(`Item '${saved.name}' was ${item ? 'updated' : 'created'} successfully!`);
        onBusyChange(false);
        onDone();
      } catch (error) {
        onBusyChange(false);
        if (!showServerRefusal(error)) notifyError(list.errors.save);
      }
    },
    () => setSubmittedInvalid(true),
  );

  const nameProps = form.getInputProps('name');
  const isoCodeProps = form.getInputProps('isoCode');
  const handleNameFocus = (event: FocusEvent<HTMLInputElement>) => {
    nameProps.onFocus?.(event);
    const input = event.currentTarget;
    moveCaretToEnd(input);
    // A click places the caret after the focus event; put it back at the end once the click is done.
    setTimeout(() => {
      if (document.activeElement === input) moveCaretToEnd(input);
    }, 0);
  };

  return (
    <form ref={serverError.formRef} onSubmit={handleSubmit} noValidate {...blurGuard.formProps}>
      <Stack gap="md">
        <TextInput
          label="Name"
          placeholder={list.namePlaceholder}
          autoComplete="off"
          data-autofocus
          {...nameProps}
          onFocus={handleNameFocus}
        />
        {list.withSymbol ? (
          <TextInput
            label="Symbol"
            placeholder="Currency symbol."
            autoComplete="off"
            {...form.getInputProps('symbol')}
          />
        ) : null}
        {list.isoCode ? (
          <TextInput
            label="ISO code"
            description={list.isoCode.description}
            placeholder={list.isoCode.placeholder}
            autoComplete="off"
            maxLength={list.isoCode.length}
            styles={{ wrapper: { maxWidth: 200 }, input: { textTransform: 'uppercase' } }}
            {...isoCodeProps}
            onChange={(event) => form.setFieldValue('isoCode', event.currentTarget.value.toUpperCase())}
          />
        ) : null}
        {list.withDirectDebit ? (
          <Switch
            label="Direct debit"
            description="Payments by SEPA direct debit (a mandate is needed)"
            {...form.getInputProps('directDebit', { type: 'checkbox' })}
          />
        ) : null}
        <IncompleteFormAlert show={submittedInvalid && !form.isValid()} />
        {serverError.banner}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            {item ? 'Update' : 'Save'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
