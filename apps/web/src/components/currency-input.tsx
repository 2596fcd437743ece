import { NumberInput, type NumberInputProps } from '@mantine/core';

type FixedFormatProps =
  | 'prefix'
  | 'suffix'
  | 'thousandSeparator'
  | 'decimalSeparator'
  | 'allowedDecimalSeparators'
  | 'decimalScale'
  | 'fixedDecimalScale'
  | 'allowNegative'
  | 'allowDecimal';

/** Props of {@link CurrencyInput}: those of Mantine's NumberInput, minus the fixed money format. */
export type CurrencyInputProps = Omit<NumberInputProps, FixedFormatProps> & {
  /** The currency shown before the amount, e.g. `€` or `CHF`; empty for none (part 2 §2.6 Frais/livraison, Dons). */
  prefix: string;
};

/**
 * The one money input of the client (part 1 §2 Products "currency mask", §9: dot thousands, comma
 * decimal, no negatives; 2 decimals): `1.234,50` is typed and shown as `€ 1.234,50`. The value is a
 * number in units, or `''` when the field is empty. Focusing selects the amount, so typing replaces
 * it. Only the comma is a decimal separator, so typing the dot of `1.234,50` does not start the decimals.
 */
export function CurrencyInput({ prefix, ...props }: CurrencyInputProps) {
  return (
    <NumberInput
      prefix={prefix ? `${prefix} ` : undefined}
      thousandSeparator="."
      decimalSeparator=","
      allowedDecimalSeparators={[',']}
      decimalScale={2}
      fixedDecimalScale
      allowNegative={false}
      hideControls
      inputMode="decimal"
      selectAllOnFocus
      {...props}
    />
  );
}
