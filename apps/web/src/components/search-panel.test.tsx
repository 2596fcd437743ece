import { TextInput } from '@mantine/core';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../testing/render.tsx';
import { SearchPanel } from './search-panel.tsx';

describe('SearchPanel', () => {
  it('searches on Enter in a text field and on Search; clears on Clear', async () => {
    const onSearch = vi.fn();
    const onClear = vi.fn();
    const { user } = renderWithProviders(
      <SearchPanel opened onSearch={onSearch} onClear={onClear}>
        <TextInput label="Town" />
      </SearchPanel>,
    );
    await user.type(screen.getByLabelText('Town'), 'Genève{Enter}');
    expect(onSearch).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(onSearch).toHaveBeenCalledTimes(2);
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(onClear).toHaveBeenCalledOnce();
  });
});
