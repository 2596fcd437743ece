import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../testing/render.tsx';
import { CurrencyInput } from './currency-input.tsx';

function Harness({ initial }: { initial: number | string }) {
  const [value, setValue] = useState<number | string>(initial);
  return (
    <>
      <CurrencyInput label="Euros Price" prefix="€" value={value} onChange={setValue} />
      <output aria-label="value">{JSON.stringify(value)}</output>
    </>
  );
}

describe('CurrencyInput', () => {
  it('reads 1.234,50 typed with dot thousands and comma decimals as 1234.5 and shows it with its prefix', async () => {
    const { user } = renderWithProviders(<Harness initial="" />);
    const input = screen.getByLabelText('Euros Price');
    await user.type(input, '1.234,50');
    expect(input).toHaveValue('€ 1.234,50');
    expect(screen.getByLabelText('value')).toHaveTextContent('1234.5');
  });

  it('shows two decimals, refuses a minus sign and a third decimal', async () => {
    const { user } = renderWithProviders(<Harness initial={12} />);
    const input = screen.getByLabelText('Euros Price');
    expect(input).toHaveValue('€ 12,00');
    await user.clear(input);
    await user.type(input, '-7,125');
    expect(input).toHaveValue('€ 7,12');
    expect(screen.getByLabelText('value')).toHaveTextContent('7.12');
  });

  it('gives an empty string when cleared, so that a form can say the price is required', async () => {
    const { user } = renderWithProviders(<Harness initial={5} />);
    await user.clear(screen.getByLabelText('Euros Price'));
    expect(screen.getByLabelText('value')).toHaveTextContent('""');
  });
});
