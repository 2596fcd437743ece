import type { Subscriber } from '@back-office/contract/subscribers';
import {
  Accordion,
  Alert,
  Button,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconDeviceFloppy } from '@tabler/icons-react';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useServerErrorBanner } from '../../../components/server-error-banner.tsx';
import { useUnsavedChangesGuard } from '../../../components/unsaved-changes-guard.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { getSubscriber } from '../api/get-subscriber.ts';
import { STALE_SUBSCRIBER_CODE, useSaveSubscriber } from '../api/save-subscriber.ts';
import {
  defaultCurrencyId,
  parseSubscriberForm,
  REQUIRED_FIELDS,
  type SubscriberFormValues,
  type SubscriberLookups,
  subscriberFullName,
  subscriberHeading,
  toFormValues,
  validateSubscriberForm,
} from '../subscriber-form-values.ts';
import { SubscriberActionsMenu } from './subscriber-actions-menu.tsx';
import { SubscriberAddressFields } from './subscriber-address-fields.tsx';
import { SubscriberContactFields } from './subscriber-contact-fields.tsx';
import {
  SubscriberDuplicatesAlert,
  SubscriberDuplicatesButton,
  useDuplicateWarning,
} from './subscriber-duplicates-alert.tsx';
import { SubscriberMailingStatusFields } from './subscriber-mailing-status-fields.tsx';
import { SubscriberNotesField } from './subscriber-notes-field.tsx';
import { SubscriberPaymentFields } from './subscriber-payment-fields.tsx';
import { SubscriberPersonalFields } from './subscriber-personal-fields.tsx';
import { SubscriberSubscriptionFields } from './subscriber-subscription-fields.tsx';
import { SubscriberTagsField } from './subscriber-tags-field.tsx';

/** §5: the heading of the list of missing required fields after a save attempt. */
export const REQUIRED_HEADING = 'Required:';

/** Shown (and toasted) when a save was refused because someone else saved the subscriber meanwhile. */
export const STALE_MESSAGE =
  'Someone else changed this subscriber since you opened it. Your changes are not saved yet: reload to see theirs (your changes will be lost), or keep editing and copy what you need first.';

/** The eight accordion panels of §2.2, in order, with the fields each one holds. */
const PANELS = [
  {
    value: 'personal',
    title: 'Personal Details',
    fields: ['title', 'firstName', 'lastName', 'categoryId', 'association'],
  },
  {
    value: 'address',
    title: 'Address',
    fields: ['address1', 'address2', 'address3', 'town', 'countryId', 'postcode', 'billingAddress'],
  },
  {
    value: 'contact',
    title: 'Contact Details',
    fields: [
      'phone',
      'mobile',
      'fax',
      'email',
      'onMailChimpList',
      'newsletterEmail',
      'emailConsentDate',
      'emailConsentSource',
    ],
  },
  {
    value: 'payment',
    title: 'Payment Details',
    fields: ['paymentMethodId', 'bank', 'iban', 'currencyId', 'amount', 'rum', 'startDate', 'endDate'],
  },
  {
    value: 'subscription',
    title: 'Subscription Details',
    fields: ['subscriptionTypeId', 'copies', 'recommendedBy'],
  },
  { value: 'status', title: 'Mailing List Status', fields: ['inactive', 'inactiveReason'] },
  { value: 'tags', title: 'Custom Tags', fields: ['tags'] },
  { value: 'notes', title: 'General Notes', fields: ['notes'] },
] as const;

const ALL_PANELS = PANELS.map((panel) => panel.value as string);

/** The panel that holds a field (a server error path such as `tags.0` counts for `tags`). */
function panelOf(path: string): string | undefined {
  const field = path.split('.')[0] ?? path;
  return PANELS.find((panel) => (panel.fields as readonly string[]).includes(field))?.value;
}

/** The form's first values: a new subscriber without a currency gets EURO (or the first one, §5). */
function initialValues(subscriber: Subscriber, lookups: SubscriberLookups): SubscriberFormValues {
  const values = toFormValues(subscriber);
  if (subscriber.id === 0 && values.currencyId === 0)
    values.currencyId = defaultCurrencyId(lookups.currencies);
  return values;
}

/**
 * Enter never submits (§2.2); in a text area Enter alone does nothing and Shift+Enter starts a new
 * line (§2.2 General Notes). Lists (selects, tags) still pick their option with Enter.
 */
function handleFormKeyDown(event: KeyboardEvent<HTMLFormElement>) {
  if (event.key !== 'Enter') return;
  const target = event.target;
  if (target instanceof HTMLTextAreaElement) {
    if (!event.shiftKey) event.preventDefault();
    return;
  }
  if (target instanceof HTMLInputElement) event.preventDefault();
}

/**
 * Moves the focus to the first field showing an error, once the panels holding it have opened, unless
 * the user has moved it meanwhile.
 */
function focusFirstError() {
  const focused = document.activeElement;
  setTimeout(() => {
    if (document.activeElement !== focused) return;
    const field = document.querySelector<HTMLElement>('#subscriber-form [aria-invalid="true"]');
    field?.focus();
  }, 250);
}

type SubscriberFormProps = {
  /** The record to edit: the blank one of `GET /api/subscribers/new` (id 0) or a saved one. */
  subscriber: Subscriber;
  lookups: SubscriberLookups;
};

/**
 * The subscriber screen's form (part 2 §2.2, §4 Subscriber screen, §5, §8), one instance shared by new
 * and existing subscribers: heading, Save (spinner while saving or while an action runs), the Actions
 * menu of a saved subscriber, the "Required:" list after a save attempt, and the eight panels (one
 * component each). Saving a new subscriber goes to its page. A save refused because someone else
 * saved first keeps the user's edits and offers to reload. Leaving with unsaved changes asks first.
 * Likely duplicates of the person being written are shown as a warning that does not stop the save.
 */
export function SubscriberForm({ subscriber, lookups }: SubscriberFormProps) {
  const navigate = useNavigate();
  const saveSubscriber = useSaveSubscriber();
  const [record, setRecord] = useState(subscriber);
  const [attempted, setAttempted] = useState(false);
  const [stale, setStale] = useState(false);
  const [reloading, setReloading] = useState(false);
  const [actionBusy, setActionBusy] = useState(false);
  const [openPanels, setOpenPanels] = useState<string[]>(ALL_PANELS);
  const form = useForm<SubscriberFormValues>({
    initialValues: initialValues(subscriber, lookups),
    validate: validateSubscriberForm,
  });

  const duplicates = useDuplicateWarning(form, record.id);

  const saving = saveSubscriber.isPending;
  const dirty = form.isDirty();
  const guard = useUnsavedChangesGuard(dirty || saving);

  const requiredMessages = attempted
    ? (() => {
        const errors = validateSubscriberForm(form.values);
        return REQUIRED_FIELDS.map((field) => errors[field]).filter((message) => typeof message === 'string');
      })()
    : [];

  const openPanelsOf = (paths: string[]) => {
    const wanted = new Set(paths.map(panelOf).filter((panel) => panel !== undefined));
    setOpenPanels((current) => [...new Set([...current, ...wanted])]);
  };

  const resetTo = (saved: Subscriber) => {
    const values = toFormValues(saved);
    form.setInitialValues(values);
    form.setValues(values);
    form.resetDirty(values);
    form.clearErrors();
    setRecord(saved);
  };

  const serverError = useServerErrorBanner();
  const showServerErrors = (error: ApiError): boolean => {
    const fields = error.errors.filter((item) => panelOf(item.path) !== undefined);
    const fieldOf = (path: string) => path.split('.')[0] ?? path;
    for (const item of fields) form.setFieldError(fieldOf(item.path), item.message);
    if (fields.length > 0) {
      openPanelsOf(fields.map((item) => item.path));
      // Once the panels are open, the banner names the fields and the first one gets the focus.
      window.setTimeout(() => serverError.show(error, form.setFieldError, fieldOf), 0);
    }
    return fields.length > 0;
  };

  const handleSubmit = form.onSubmit(
    async (values) => {
      setAttempted(true);
      serverError.clear();
      const wasNew = record.id === 0;
      let saved: Subscriber;
      try {
        saved = await saveSubscriber.mutateAsync(parseSubscriberForm(values));
      } catch (error) {
        if (error instanceof ApiError && error.code === STALE_SUBSCRIBER_CODE) {
          setStale(true);
          notifyError('saving the subscriber', 'Someone else changed this subscriber since you opened it.');
        } else if (error instanceof ApiError && showServerErrors(error)) {
          notifyError('saving the subscriber', 'Please check the fields marked in red.');
        } else {
          notifyError('saving the subscriber');
        }
        return;
      }
      resetTo(saved);
      setStale(false);
      setAttempted(false);
      notifySuccess(`The subscriber '${subscriberFullName(saved)}' was saved successfully`);
      if (wasNew) {
        guard.allowNextNavigation();
        void navigate(paths.subscriber.href(saved.id), { replace: true });
      }
    },
    (errors) => {
      setAttempted(true);
      const fields = Object.keys(errors);
      openPanelsOf(fields);
      // A rule of a value no panel shows (should not happen): say so rather than do nothing.
      if (fields.some((field) => panelOf(field) === undefined)) notifyError('saving the subscriber');
      focusFirstError();
    },
  );

  const handleReload = async () => {
    setReloading(true);
    try {
      resetTo(await getSubscriber(record.id));
      setStale(false);
    } catch {
      notifyError('getting the subscriber');
    } finally {
      setReloading(false);
    }
  };

  /**
   * Takes the record as the server now has it after an action that changed it (a new RUM by the RUM
   * letter; a mandate written, which sets the RUM and IBAN of the current mandate): its version, RUM
   * and IBAN, keeping the user's other edits (those are not the server's to overwrite).
   */
  const takeServerChanges = (fresh: Subscriber) => {
    if (fresh.version <= record.version) return;
    const wasPristine = !form.isDirty();
    form.setFieldValue('version', fresh.version);
    form.setFieldValue('rum', fresh.rum);
    form.setFieldValue('iban', fresh.iban);
    setRecord(fresh);
    if (wasPristine) resetTo(fresh);
    else {
      const snapshot = {
        ...form.getInitialValues(),
        version: fresh.version,
        rum: fresh.rum,
        iban: fresh.iban,
      };
      form.setInitialValues(snapshot);
      form.resetDirty(snapshot);
    }
  };

  /** After an action of the Actions menu that changed the record on the server (a new RUM). */
  const handleRecordChanged = async () => {
    try {
      takeServerChanges(await getSubscriber(record.id));
    } catch {
      return;
    }
  };

  // The record fetched again by the screen (a mandate was written below the form).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a newer record from the server matters.
  useEffect(() => {
    takeServerChanges(subscriber);
  }, [subscriber]);

  const currencySymbol =
    lookups.currencies.find((currency) => currency.id === record.currencyId)?.symbol ?? '';

  return (
    <form
      ref={serverError.formRef}
      id="subscriber-form"
      onSubmit={handleSubmit}
      onKeyDown={handleFormKeyDown}
      onBlur={duplicates.handleBlur}
      noValidate
    >
      <Stack gap="md">
        {/* The heading and Save stay in view while the long form scrolls (§2.2 "Save at the top"). */}
        <Group
          justify="space-between"
          align="center"
          wrap="wrap"
          py="xs"
          style={{
            position: 'sticky',
            top: 'var(--app-shell-header-offset, 0px)',
            zIndex: 3,
            background: 'var(--mantine-color-body)',
          }}
        >
          <Title order={1} size="h2">
            {subscriberHeading(record)}
          </Title>
          <Group gap="sm">
            <SubscriberDuplicatesButton count={duplicates.matches.length} />
            {record.id > 0 ? (
              <SubscriberActionsMenu
                subscriber={record}
                currencySymbol={currencySymbol}
                onBusyChange={setActionBusy}
                onRecordChanged={() => void handleRecordChanged()}
              />
            ) : null}
            <Button
              type="submit"
              loading={saving || actionBusy}
              leftSection={<IconDeviceFloppy size={16} aria-hidden />}
            >
              Save
            </Button>
          </Group>
        </Group>

        {stale ? (
          <Alert
            color="orange"
            icon={<IconAlertTriangle size={18} aria-hidden />}
            title="This subscriber was changed by someone else"
          >
            <Stack gap="xs" align="flex-start">
              <Text size="sm">{STALE_MESSAGE}</Text>
              <Button
                size="xs"
                color="orange"
                variant="light"
                loading={reloading}
                onClick={() => void handleReload()}
              >
                Reload
              </Button>
            </Stack>
          </Alert>
        ) : null}

        {serverError.banner}

        {requiredMessages.length > 0 ? (
          <Alert color="red" title={REQUIRED_HEADING}>
            <List size="sm">
              {requiredMessages.map((message) => (
                <List.Item key={message}>{message}</List.Item>
              ))}
            </List>
          </Alert>
        ) : null}

        <SubscriberDuplicatesAlert matches={duplicates.matches} />

        <Accordion multiple variant="separated" value={openPanels} onChange={setOpenPanels}>
          <Panel value="personal" title="Personal Details">
            <Stack gap="sm">
              <SubscriberPersonalFields form={form} lookups={lookups} />
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
                <TextInput label="Added By" value={record.addedBy} readOnly variant="filled" />
                <TextInput
                  label="Added On"
                  value={record.addedOn ? formatDateTime(record.addedOn) : ''}
                  placeholder="Not saved yet"
                  readOnly
                  variant="filled"
                />
              </SimpleGrid>
            </Stack>
          </Panel>
          <Panel value="address" title="Address">
            <SubscriberAddressFields form={form} lookups={lookups} />
          </Panel>
          <Panel value="contact" title="Contact Details">
            <SubscriberContactFields form={form} />
          </Panel>
          <Panel value="payment" title="Payment Details">
            <SubscriberPaymentFields form={form} lookups={lookups} />
          </Panel>
          <Panel value="subscription" title="Subscription Details">
            <SubscriberSubscriptionFields form={form} lookups={lookups} />
          </Panel>
          <Panel value="status" title="Mailing List Status">
            <SubscriberMailingStatusFields form={form} />
          </Panel>
          <Panel value="tags" title="Custom Tags">
            <SubscriberTagsField form={form} lookups={lookups} />
          </Panel>
          <Panel value="notes" title="General Notes">
            <SubscriberNotesField form={form} />
          </Panel>
        </Accordion>
      </Stack>
      {guard.dialog}
    </form>
  );
}

function Panel({ value, title, children }: { value: string; title: string; children: React.ReactNode }) {
  return (
    <Accordion.Item value={value}>
      <Accordion.Control>
        <Text fw={500}>{title}</Text>
      </Accordion.Control>
      <Accordion.Panel>{children}</Accordion.Panel>
    </Accordion.Item>
  );
}
