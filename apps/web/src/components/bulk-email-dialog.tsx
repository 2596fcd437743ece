import type { BulkEmailPreview, BulkEmailQueuedResult } from '@back-office/contract/mail';
import {
  Alert,
  Button,
  Group,
  Paper,
  Progress,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import type { $ZodType } from 'zod/v4/core';
import { useMailSend, useRetryMailSend } from '../entities/mail-sends/index.ts';
import { schemaValidator, useBlurValidationGuard } from '../lib/form.ts';
import { notifyError, notifySuccess } from '../lib/notify.ts';
import { FormModal } from './form-modal.tsx';
import { IncompleteFormAlert } from './incomplete-form-alert.tsx';

/** Part 2 §8: the success toast of a bulk email. */
export const EMAILS_SUBMITTED_MESSAGE = 'Email(s) submitted successfully!';

/** The toast after the test of a bulk email was queued to the signed-in user. */
export const TEST_EMAIL_SENT_MESSAGE = 'Test email sent to your address.';

/** What the user writes: `{subject, message}`, as typed. */
export type BulkEmailContent = { subject: string; message: string };

/** Counts as French staff read them: `1 284` (a narrow no-break space between thousands). */
const count = (value: number) => new Intl.NumberFormat('fr-FR').format(value);

/** Moves the focus to a step's main button when the dialog shows that step (the previous one is gone). */
const focusOnMount = (node: HTMLButtonElement | null) => node?.focus();

/** Wait after the last keystroke before the preview is asked for again (ms). */
const PREVIEW_DEBOUNCE_MS = 400;

/** Props of {@link BulkEmailDialog}. */
export type BulkEmailDialogProps = {
  opened: boolean;
  /**
   * The contract's rules of the subject and message (e.g. `subscriberEmailListInputSchema.pick({subject,
   * message})`): part 2 §5 "Subject is required" (at least 4 characters), "Message is required".
   */
  schema: $ZodType;
  /**
   * Who the email being written reaches, who it skips and why, and the first recipient's message (the
   * server's preview of the screen's current search).
   */
  onPreview: (content: BulkEmailContent, signal: AbortSignal) => Promise<BulkEmailPreview>;
  /** What the preview depends on besides the content (the screen's filters), for its cache key. */
  previewKey: unknown;
  /** Sends the first recipient's message to the signed-in user; rejects when the server refused. */
  onTestSend: (content: BulkEmailContent) => Promise<unknown>;
  /**
   * Sends the email to the recipients of the screen's current search (its filters are the caller's);
   * resolves with `{queued, sendId}` once the server accepted it, rejects when it refused.
   */
  onSend: (content: BulkEmailContent) => Promise<BulkEmailQueuedResult>;
  /** A line under the message, e.g. which placeholders are replaced. */
  hint?: ReactNode;
  /** Shows "Please complete all the information!" after a Send with invalid fields. */
  showIncompleteAlert?: boolean;
  onClose: () => void;
};

/**
 * The Email Subscribers dialog of the search screens (part 2 §2.1 Subscribers, §2.5 Sales list screen;
 * §3 email-list payloads, §5, §8): Subject (placeholder "Enter subject"), Message (5 rows), Send and
 * Cancel. Before sending, it says how many will receive it and how many are skipped (no address,
 * unsubscribed, deleted), previews the first recipient's message and offers a test sent to the signed-in
 * user; Send stays disabled while the subject or message is empty, and asks "Send to 1 284
 * subscribers?" before anything goes. Errors show once a field is touched or after a Send. Once the
 * server accepted it, "Email(s) submitted successfully!" and the dialog shows the send's progress
 * (queued, sent, failed) with a retry of the failed messages; a refusal says "Houston - there was a
 * problem emailing the subscribers." and the dialog stays.
 */
export function BulkEmailDialog({ opened, onClose, ...props }: BulkEmailDialogProps) {
  const [busy, setBusy] = useState(false);
  return (
    <FormModal opened={opened} title="Email Subscribers" busy={busy} size="lg" onClose={onClose}>
      {opened ? <BulkEmailFlow {...props} busy={busy} onBusyChange={setBusy} onDone={onClose} /> : null}
    </FormModal>
  );
}

type BulkEmailFlowProps = Omit<BulkEmailDialogProps, 'opened' | 'onClose'> & {
  busy: boolean;
  onBusyChange: (busy: boolean) => void;
  onDone: () => void;
};

function BulkEmailFlow({
  schema,
  onPreview,
  previewKey,
  onTestSend,
  onSend,
  hint,
  showIncompleteAlert,
  busy,
  onBusyChange,
  onDone,
}: BulkEmailFlowProps) {
  const [submittedInvalid, setSubmittedInvalid] = useState(false);
  const [confirming, setConfirming] = useState<BulkEmailContent | null>(null);
  const [sendId, setSendId] = useState<number | null>(null);
  const [testing, setTesting] = useState(false);
  const blurGuard = useBlurValidationGuard();
  const form = useForm<BulkEmailContent>({
    initialValues: { subject: '', message: '' },
    validate: schemaValidator(schema),
    validateInputOnBlur: true,
    enhanceGetInputProps: blurGuard.enhanceGetInputProps,
  });
  const [draft] = useDebouncedValue(form.values, PREVIEW_DEBOUNCE_MS);
  const preview = useQuery({
    queryKey: ['bulk-email-preview', previewKey, draft],
    queryFn: ({ signal }) => onPreview(draft, signal),
    placeholderData: keepPreviousData,
    // Counts of a dialog opened earlier are never shown again: someone may have unsubscribed meanwhile.
    staleTime: 0,
    gcTime: 0,
  });

  const empty = !form.values.subject.trim() || !form.values.message.trim();

  const handleSubmit = form.onSubmit(
    (values) => {
      setSubmittedInvalid(false);
      setConfirming(values);
    },
    () => setSubmittedInvalid(true),
  );

  const handleTest = async () => {
    if (form.validate().hasErrors) {
      setSubmittedInvalid(true);
      return;
    }
    setTesting(true);
    try {
      await onTestSend(form.getValues());
      notifySuccess(TEST_EMAIL_SENT_MESSAGE);
    } catch {
      notifyError('sending the test email');
    } finally {
      setTesting(false);
    }
  };

  const handleConfirm = async (values: BulkEmailContent) => {
    onBusyChange(true);
    try {
      const result = await onSend(values);
      setSendId(result.sendId);
    } catch {
      notifyError('emailing the subscribers');
      setConfirming(null);
      return;
    } finally {
      onBusyChange(false);
    }
    notifySuccess(EMAILS_SUBMITTED_MESSAGE);
  };

  if (sendId !== null) return <BulkEmailProgress sendId={sendId} onClose={onDone} />;

  if (confirming) {
    const recipients = preview.data?.recipients;
    return (
      <Stack gap="md">
        <Title order={3} size="h4">
          {recipients === undefined
            ? 'Send to the matching subscribers?'
            : `Send to ${count(recipients)} ${recipients === 1 ? 'subscriber' : 'subscribers'}?`}
        </Title>
        <Text size="sm">Subject: {confirming.subject.trim()}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => setConfirming(null)} disabled={busy}>
            Back
          </Button>
          <Button ref={focusOnMount} onClick={() => void handleConfirm(confirming)} loading={busy}>
            Yes, send
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form onSubmit={handleSubmit} noValidate {...blurGuard.formProps}>
      <Stack gap="md">
        <TextInput
          label="Subject"
          placeholder="Enter subject"
          data-autofocus
          {...form.getInputProps('subject')}
        />
        <Textarea label="Message" rows={5} {...form.getInputProps('message')} />
        {hint}
        <AudienceSummary preview={preview.data} failed={preview.isError} />
        {preview.data?.preview ? <MessagePreview message={preview.data.preview} /> : null}
        {showIncompleteAlert ? <IncompleteFormAlert show={submittedInvalid && !form.isValid()} /> : null}
        <Group justify="space-between" gap="sm">
          <Button variant="default" onClick={() => void handleTest()} loading={testing} disabled={empty}>
            Send a test to me
          </Button>
          <Group gap="sm">
            <Button variant="default" onClick={onDone}>
              Cancel
            </Button>
            <Button type="submit" disabled={empty}>
              Send
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

/** "1 284 will receive it. Skipped: 3 without an email address, 2 unsubscribed, 1 deleted." */
function AudienceSummary({ preview, failed }: { preview: BulkEmailPreview | undefined; failed: boolean }) {
  if (failed) {
    return (
      <Text size="sm" role="status">
        The recipients could not be counted.
      </Text>
    );
  }
  if (!preview) {
    return (
      <Text size="sm" role="status">
        Counting the recipients…
      </Text>
    );
  }
  const { recipients, skipped } = preview;
  return (
    <Text size="sm" role="status">
      {`${count(recipients)} will receive it. Skipped: ${count(skipped.noAddress)} without an email address, ${count(skipped.unsubscribed)} unsubscribed, ${count(skipped.deleted)} deleted.`}
    </Text>
  );
}

/** The message as the first recipient gets it, in a box that scrolls on its own. */
function MessagePreview({ message }: { message: NonNullable<BulkEmailPreview['preview']> }) {
  return (
    <Paper withBorder p="sm" component="section" aria-label="Preview">
      <Text size="sm" fw={600}>
        Preview for {message.to}
      </Text>
      <Text size="sm">Subject: {message.subject}</Text>
      <Text
        size="sm"
        // Keyboard users can scroll a long message too.
        tabIndex={0}
        style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', maxHeight: '12rem', overflowY: 'auto' }}
        mt="xs"
      >
        {message.text}
      </Text>
    </Paper>
  );
}

/** After sending: the send's messages queued, sent and failed, read again while some are queued. */
function BulkEmailProgress({ sendId, onClose }: { sendId: number; onClose: () => void }) {
  const progress = useMailSend(sendId);
  const retry = useRetryMailSend(sendId);
  const doneRef = useRef<HTMLButtonElement | null>(null);
  const data = progress.data;
  const done = data ? data.sent + data.failed + data.cancelled : 0;
  const handleRetry = async () => {
    try {
      await retry.mutateAsync();
      // The Retry button goes once nothing has failed: the focus must not go with it.
      doneRef.current?.focus();
    } catch {
      notifyError('retrying the failed emails');
    }
  };
  return (
    <Stack gap="md">
      <Title order={3} size="h4">
        Sending
      </Title>
      {data ? (
        <>
          <Progress
            value={data.total === 0 ? 100 : (done / data.total) * 100}
            aria-label="Messages processed"
          />
          <Text size="sm" role="status">
            {`Queued: ${count(data.queued)} · Sent: ${count(data.sent)} · Failed: ${count(data.failed)}`}
            {data.cancelled > 0 ? ` · Cancelled: ${count(data.cancelled)}` : ''}
          </Text>
        </>
      ) : progress.isError ? (
        <Alert color="red" variant="outline">
          The progress could not be read.
        </Alert>
      ) : (
        <Text size="sm">Reading the progress…</Text>
      )}
      <Group justify="flex-end" gap="sm">
        {data && data.failed > 0 ? (
          <Button variant="default" onClick={() => void handleRetry()} loading={retry.isPending}>
            Retry failed
          </Button>
        ) : null}
        <Button
          ref={(node) => {
            doneRef.current = node;
            focusOnMount(node);
          }}
          onClick={onClose}
        >
          Done
        </Button>
      </Group>
    </Stack>
  );
}
