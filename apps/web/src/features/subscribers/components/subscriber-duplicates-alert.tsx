import type { DuplicateMatch } from '@back-office/contract/duplicates';
import { Alert, Anchor, Button, List, Text, VisuallyHidden } from '@mantine/core';
import { IconAlertTriangle, IconUsers } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { duplicateReasonsText } from '../../../entities/duplicates/index.ts';
import { type DuplicateCheckBody, useDuplicateCheck } from '../api/check-duplicates.ts';
import type { SubscriberForm, SubscriberFormValues } from '../subscriber-form-values.ts';

/** How long after leaving a field the check waits (tabbing through several fields asks once). */
export const DUPLICATE_CHECK_DELAY_MS = 400;

const CHECKED_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'phone',
  'mobile',
  'iban',
  'postcode',
  'town',
] as const;
type CheckedFields = Record<(typeof CHECKED_FIELDS)[number], string>;

function checkedFieldsOf(values: SubscriberFormValues): CheckedFields {
  const fields = {} as CheckedFields;
  for (const field of CHECKED_FIELDS) fields[field] = values[field].trim();
  return fields;
}

function sameFields(a: CheckedFields, b: CheckedFields): boolean {
  return CHECKED_FIELDS.every((field) => a[field] === b[field]);
}

/**
 * Whether the fields say enough to find someone: a whole email address, an IBAN (the shortest has 15
 * characters), or a last name with a postcode or a town. Half-typed values would only bring noise.
 */
function worthChecking(fields: CheckedFields): boolean {
  if (/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(fields.email)) return true;
  if (fields.iban.replace(/\s+/g, '').length >= 15) return true;
  return fields.lastName.length >= 2 && (fields.postcode !== '' || fields.town.length >= 2);
}

/**
 * The likely duplicates of the subscriber being written (`POST /api/subscribers/duplicates/check`,
 * `excludeId` the record being edited): asked {@link DUPLICATE_CHECK_DELAY_MS} ms after the user leaves
 * a field, once the names, email, phones, IBAN, postcode or town differ from what was last checked (a
 * saved record's own values are not checked until changed). `handleBlur` goes on the form.
 */
export function useDuplicateWarning(form: SubscriberForm, excludeId: number) {
  const [fields, setFields] = useState(() => checkedFieldsOf(form.getValues()));
  const [changed, setChanged] = useState(false);
  const latest = useRef(fields);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const handleBlur = () => {
    // The values as the user left them: what is typed meanwhile waits for its own blur.
    const next = checkedFieldsOf(form.getValues());
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (sameFields(latest.current, next)) return;
      latest.current = next;
      setFields(next);
      setChanged(true);
    }, DUPLICATE_CHECK_DELAY_MS);
  };

  const body: DuplicateCheckBody | null = changed && worthChecking(fields) ? { excludeId, ...fields } : null;
  const check = useDuplicateCheck(body);
  const matches: DuplicateMatch[] = body === null ? [] : (check.data ?? []);
  return { handleBlur, matches };
}

/** "1003 Lausanne · zoe@example.org": where the match lives and its email, whichever are known. */
function placeAndEmail(match: DuplicateMatch): string {
  return [`${match.postcode} ${match.town}`.trim(), match.email].filter((part) => part !== '').join(' · ');
}

const ALERT_ID = 'subscriber-duplicates';

/**
 * Beside Save in the form's sticky header while there are likely duplicates: the warning sits at the
 * top of a long form, out of sight when the email or IBAN was typed; this brings it into view.
 */
export function SubscriberDuplicatesButton({ count }: { count: number }) {
  if (count === 0) return null;
  const handleClick = () => {
    const alert = document.getElementById(ALERT_ID);
    alert?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    alert?.focus({ preventScroll: true });
  };
  return (
    <Button
      variant="light"
      color="orange"
      leftSection={<IconAlertTriangle size={16} aria-hidden />}
      onClick={handleClick}
    >
      {count === 1 ? '1 possible duplicate' : `${count} possible duplicates`}
    </Button>
  );
}

/**
 * The non-blocking warning of the subscriber form: "This person may already be in the register", with
 * each likely duplicate (name opening it in a new tab, postcode and town, email, why it matches).
 * Nothing while there are none; saving stays possible.
 */
export function SubscriberDuplicatesAlert({ matches }: { matches: readonly DuplicateMatch[] }) {
  if (matches.length === 0) return null;
  return (
    <Alert
      id={ALERT_ID}
      tabIndex={-1}
      color="orange"
      icon={<IconUsers size={18} aria-hidden />}
      title="This person may already be in the register"
    >
      <Text size="sm" mb="xs">
        Check {matches.length === 1 ? 'this subscriber' : 'these subscribers'} before saving (saving is still
        possible):
      </Text>
      <List size="sm" spacing={6} aria-label="Likely duplicates">
        {matches.map((match) => (
          <List.Item key={match.id}>
            <Anchor
              component={Link}
              to={paths.subscriber.href(match.id)}
              target="_blank"
              rel="noopener noreferrer"
              size="sm"
              fw={500}
              // The theme's link blue is too pale on the orange alert (AA contrast).
              c="blue.9"
              underline="always"
            >
              {match.name} (no. {match.id}) <VisuallyHidden>(opens in a new tab)</VisuallyHidden>
            </Anchor>
            {placeAndEmail(match) ? (
              <Text span size="sm">
                {' '}
                · {placeAndEmail(match)}
              </Text>
            ) : null}
            <Text size="xs">{duplicateReasonsText(match.reasons)}</Text>
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}
