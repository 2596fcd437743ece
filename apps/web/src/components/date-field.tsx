import '@mantine/dates/styles.css';
import { DatePickerInput, type DatePickerInputProps } from '@mantine/dates';

/** Part 2 §5, §9: pickers show DD-MM-YYYY; the wire format is YYYY-MM-DD. */
export const DATE_FIELD_FORMAT = 'DD-MM-YYYY';

/** Part 2 §2.2, §9: the week starts on Sunday (0). */
const SUNDAY = 0;

/** Props of {@link DateField}: Mantine's DatePickerInput (single date) with a string value. */
export type DateFieldProps = Omit<
  DatePickerInputProps<'default'>,
  'value' | 'defaultValue' | 'onChange' | 'type' | 'valueFormat' | 'firstDayOfWeek'
> & {
  /** `YYYY-MM-DD`, or `''` / null for none. */
  value: string | null | undefined;
  /** Gives `YYYY-MM-DD`, or `''` when cleared (search filters send an empty string, §5). */
  onChange: (value: string) => void;
  /** Opens the calendar above the field (the subscriber screen's pickers, §2.2). */
  opensUpward?: boolean;
};

/**
 * The one date picker of the client (part 2 §2.1, §2.2, §2.4, §2.5, §5, §9): shows DD-MM-YYYY, weeks
 * start on Sunday, clearable, value and change in `YYYY-MM-DD` (empty string when none).
 */
export function DateField({ value, onChange, opensUpward = false, popoverProps, ...props }: DateFieldProps) {
  return (
    <DatePickerInput
      valueFormat={DATE_FIELD_FORMAT}
      firstDayOfWeek={SUNDAY}
      clearable
      value={value ? value : null}
      onChange={(next) => onChange(next ? String(next).slice(0, 10) : '')}
      popoverProps={{ position: opensUpward ? 'top-start' : 'bottom-start', ...popoverProps }}
      {...props}
    />
  );
}
