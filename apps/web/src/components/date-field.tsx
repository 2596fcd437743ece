import '@mantine/dates/styles.css';
import 'dayjs/locale/fr';
import { DateInput, type DateInputProps, DatesProvider } from '@mantine/dates';
import { parseFrenchDate } from '../lib/french-date.ts';

/** The pickers show and take days as `dd/mm/yyyy`; the wire format stays `YYYY-MM-DD`. */
export const DATE_FIELD_FORMAT = 'DD/MM/YYYY';

/** French month and day names, weeks starting on Monday. */
const FRENCH_DATES = { locale: 'fr', firstDayOfWeek: 1 } as const;

/** Props of {@link DateField}: Mantine's DateInput with a string value. */
export type DateFieldProps = Omit<
  DateInputProps,
  'value' | 'defaultValue' | 'onChange' | 'valueFormat' | 'dateParser' | 'firstDayOfWeek'
> & {
  /** `YYYY-MM-DD`, or `''` / null for none. */
  value: string | null | undefined;
  /** Gives `YYYY-MM-DD`, or `''` when cleared (search filters send an empty string, part 2 §5 Validation Rules). */
  onChange: (value: string) => void;
  /** Opens the calendar above the field (the subscriber screen's pickers, part 2 §2.2 Subscriber Detail). */
  opensUpward?: boolean;
};

/**
 * The one date field of the client (part 2 §2.1, §2.2, §2.4, §2.5, §5, §9), in French: a day is typed
 * as `dd/mm/yyyy` (also `5/1/2026`, `05.01.2026`) or picked in a calendar with French month names and
 * weeks starting on Monday; shown as `dd/mm/yyyy`; clearable; value and change in `YYYY-MM-DD` (empty
 * string when none). A typed text that is not a day is put back to the last good one on blur.
 */
export function DateField({ value, onChange, opensUpward = false, popoverProps, ...props }: DateFieldProps) {
  return (
    <DatesProvider settings={FRENCH_DATES}>
      <DateInput
        valueFormat={DATE_FIELD_FORMAT}
        dateParser={parseFrenchDate}
        placeholder="jj/mm/aaaa"
        clearable
        value={value ? value : null}
        onChange={(next) => onChange(next ? String(next).slice(0, 10) : '')}
        popoverProps={{ position: opensUpward ? 'top-start' : 'bottom-start', ...popoverProps }}
        {...props}
      />
    </DatesProvider>
  );
}
