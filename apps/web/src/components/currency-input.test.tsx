import { screen, waitFor } from '@testing-library/react';
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

async function typeAmount(text: string, initial: number | string = '') {
  const rendered = renderWithProviders(<Harness initial={initial} />);
  const input = screen.getByLabelText('Euros Price');
  await rendered.user.click(input);
  await rendered.user.keyboard('{Control>}a{/Control}{Backspace}');
  if (text) await rendered.user.type(input, text);
  return { ...rendered, input };
}

describe('CurrencyInput', () => {
  it('reads the decimal comma: 1,5 is 1.50, never 15', async () => {
    const { user, input } = await typeAmount('1,5');
    expect(screen.getByLabelText('value')).toHaveTextContent('1.5');
    await user.tab();
    expect(input).toHaveValue('€ 1,50');
  });

  it('reads 1 234,56 with French spaces and 1.234,50 with dots as thousands', async () => {
    const { user, input, unmount } = await typeAmount('1 234,56');
    expect(screen.getByLabelText('value')).toHaveTextContent('1234.56');
    await user.tab();
    expect(input).toHaveValue('€ 1.234,56');
    unmount();
    await typeAmount('1.234,50');
    expect(screen.getByLabelText('value')).toHaveTextContent('1234.5');
  });

  it('shows the stored amount masked with two decimals', async () => {
    renderWithProviders(<Harness initial={12} />);
    expect(screen.getByLabelText('Euros Price')).toHaveValue('€ 12,00');
  });

  it('refuses a minus sign, a third decimal and letters as they are typed', async () => {
    const { user, input } = await typeAmount('-7,125x');
    expect(input).toHaveValue('7,12');
    expect(screen.getByLabelText('value')).toHaveTextContent('7.12');
    await user.tab();
    expect(input).toHaveValue('€ 7,12');
  });

  it('gives an empty string when cleared, so that a form can say the price is required', async () => {
    const { user, input } = await typeAmount('', 5);
    expect(screen.getByLabelText('value')).toHaveTextContent('""');
    await user.tab();
    expect(input).toHaveValue('');
  });

  it('selects the whole amount on focus, without its currency, so that typing replaces it', async () => {
    const { user } = renderWithProviders(<Harness initial={25.5} />);
    const input = screen.getByLabelText('Euros Price') as HTMLInputElement;
    expect(input).toHaveValue('€ 25,50');
    await user.click(input);
    expect(input).toHaveValue('25,50');
    await waitFor(() => expect([input.selectionStart, input.selectionEnd]).toEqual([0, 5]));
    await user.keyboard('7');
    expect(input).toHaveValue('7');
    expect(screen.getByLabelText('value')).toHaveTextContent('7');
  });
});
