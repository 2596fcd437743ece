import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../testing/render.tsx';
import { DateField } from './date-field.tsx';

function Harness({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <DateField label="Added After" value={value} onChange={setValue} />
      <output aria-label="value">{JSON.stringify(value)}</output>
    </>
  );
}

describe('DateField', () => {
  it('shows the day as dd/mm/yyyy and takes a typed dd/mm/yyyy as YYYY-MM-DD', async () => {
    const { user } = renderWithProviders(<Harness initial="2026-01-05" />);
    const field = screen.getByRole('textbox', { name: 'Added After' });
    expect(field).toHaveValue('05/01/2026');
    await user.clear(field);
    await user.type(field, '25/12/2025');
    expect(screen.getByLabelText('value')).toHaveTextContent('"2025-12-25"');
  });

  it('opens a French calendar whose weeks start on Monday', async () => {
    const { user } = renderWithProviders(<Harness initial="2026-03-07" />);
    await user.click(screen.getByRole('textbox', { name: 'Added After' }));
    expect(await screen.findByRole('button', { name: 'mars 2026' })).toBeInTheDocument();
    const weekdays = screen.getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(weekdays.slice(0, 2)).toEqual(['lu', 'ma']);
    await user.click(screen.getByRole('button', { name: '18 mars 2026' }));
    expect(screen.getByLabelText('value')).toHaveTextContent('"2026-03-18"');
  });
});
