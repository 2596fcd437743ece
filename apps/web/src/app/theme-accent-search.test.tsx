import { Select } from '@mantine/core';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../testing/render.tsx';

describe('theme', () => {
  it('makes every searchable Select find accented options from a plain search (part 2 §2.1)', async () => {
    const { user } = renderWithProviders(
      <Select label="Town" searchable data={['Genève', 'Saint-Étienne', 'Lyon']} />,
    );
    await user.type(screen.getByLabelText('Town', { selector: 'input' }), 'etienne');
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Saint-Étienne']);
  });
});
