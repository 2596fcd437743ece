import { parseAmount } from '@back-office/contract/money';
import { TextInput, type TextInputProps } from '@mantine/core';
import { type ChangeEvent, type FocusEvent, useState } from 'react';
import { formatMoney } from '../lib/format.ts';

/** Props of {@link CurrencyInput}: those of Mantine's TextInput, with an amount for value. */
export type CurrencyInputProps = Omit<TextInputProps, 'value' | 'defaultValue' | 'onChange' | 'prefix'> & {
  /** The currency shown before the amount, e.g. `€` or `CHF`; empty for none (part 2 §2.6 Frais/livraison, Dons). */
  prefix: string;
  /** The amount in units, or `''` when the field is empty. */
  value?: number | string;
  /** Gets the amount in units (at most 2 decimals), or `''` when the field is emptied. */
  onChange?: (value: number | '') => void;
};

/** `1234.5` as `1.234,50` (part 1 §9: "Currency mask: dot thousands, comma decimal"). */
function masked(value: number | string | undefined): string {
  if (value === undefined || value === '') return '';
  const number = Number(value);
  return Number.isFinite(number) ? formatMoney(number).replace(/[\s\u00a0\u202f]/g, '.') : '';
}

function withPrefix(prefix: string, amount: string): string {
  return prefix && amount ? `${prefix} ${amount}` : amount;
}

/**
 * The one money input of the client (part 1 §2 Products "currency mask", §9: 2 decimals, no
 * negatives): what is typed is read by the shared `parseAmount`, so the decimal comma is a decimal
 * (`1,5` is 1.50, never 15), `1 234,56` and `1.234,56` are 1234.56, and a keystroke that would make
 * the text no amount (a minus sign, a third decimal, a letter) is refused. Away from the field the
 * amount shows masked, with the currency before it (`€ 1.234,50`); focusing shows the amount alone
 * and selects it, so typing replaces it.
 */
export function CurrencyInput({ prefix, value, onChange, onFocus, onBlur, ...props }: CurrencyInputProps) {
  const [text, setText] = useState<string | null>(null);
  // While focused, the text as typed, unless the value was changed from outside (a form reset).
  const typed = text !== null && (text.trim() === '' ? value === '' : parseAmount(text) === Number(value));
  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const next = prefix ? event.currentTarget.value.replace(prefix, '') : event.currentTarget.value;
    if (next.trim() === '') {
      setText(next);
      onChange?.('');
      return;
    }
    const amount = parseAmount(next);
    if (amount === null) return;
    setText(next);
    onChange?.(amount);
  };
  const handleFocus = (event: FocusEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    setText(masked(value));
    // Selected once the amount without its currency is drawn: replacing the text moves the caret.
    setTimeout(() => {
      if (document.activeElement === input) input.select();
    }, 0);
    onFocus?.(event);
  };
  const handleBlur = (event: FocusEvent<HTMLInputElement>) => {
    setText(null);
    onBlur?.(event);
  };
  return (
    <TextInput
      inputMode="decimal"
      autoComplete="off"
      {...props}
      value={typed && text !== null ? text : withPrefix(prefix, masked(value))}
      onChange={handleChange}
      onFocus={handleFocus}
      onBlur={handleBlur}
    />
  );
}
