import { Button } from '@mantine/core';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../testing/render.tsx';
import { type FetchPage, InfiniteTable, useInfiniteList } from './infinite-table.tsx';

type Row = { id: number; name: string };

const ALL: Row[] = Array.from({ length: 120 }, (_, index) => ({
  id: index + 1,
  name: `Person ${index + 1}`,
}));

function Harness({
  fetchPage,
  enabled = true,
  onRemove,
}: {
  fetchPage: FetchPage<Row>;
  enabled?: boolean;
  onRemove?: (row: Row) => Promise<boolean>;
}) {
  const list = useInfiniteList<Row>({ queryKey: ['harness'], fetchPage, enabled });
  return (
    <>
      <output aria-label="count">{list.count ?? '-'}</output>
      <Button onClick={list.fetchNextPage}>More</Button>
      <InfiniteTable
        list={list}
        label="People"
        columns={[{ key: 'name', header: 'Name', render: (row) => row.name }]}
        rowActions={(row) => <Button size="xs">Edit {row.id}</Button>}
        idleMessage="Please enter some search criteria."
        emptyMessage="Nothing matches."
        {...(onRemove ? { onRemove } : {})}
      />
    </>
  );
}

function serverPages(rows: Row[] = ALL) {
  const calls: [number, number][] = [];
  const fetchPage: FetchPage<Row> = async (listfrom, listlength) => {
    calls.push([listfrom, listlength]);
    return { count: rows.length, rows: rows.slice(listfrom - 1, listfrom - 1 + listlength) };
  };
  return { calls, fetchPage };
}

describe('InfiniteTable', () => {
  it('shows the idle message and fetches nothing before a search', () => {
    const { calls, fetchPage } = serverPages();
    renderWithProviders(<Harness fetchPage={fetchPage} enabled={false} />);
    expect(screen.getByText('Please enter some search criteria.')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('shows the empty message when nothing matched', async () => {
    const { fetchPage } = serverPages([]);
    renderWithProviders(<Harness fetchPage={fetchPage} />);
    expect(await screen.findByText('Nothing matches.')).toBeInTheDocument();
  });

  it('loads pages of 50 from position 1, then 51, and renders only the rows in view', async () => {
    const { calls, fetchPage } = serverPages();
    const { user } = renderWithProviders(<Harness fetchPage={fetchPage} />);
    expect(await screen.findByText('Person 1')).toBeInTheDocument();
    expect(screen.getByLabelText('count')).toHaveTextContent('120');
    expect(calls).toEqual([[1, 50]]);
    expect(screen.queryByText('Person 50')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'More' }));
    await vi.waitFor(() =>
      expect(calls).toEqual([
        [1, 50],
        [51, 50],
      ]),
    );
  });

  it('goes on past an estimated count while pages come back full, and stops at a short page', async () => {
    const calls: number[] = [];
    // The server estimated 50 matches; there are 120.
    const fetchPage: FetchPage<Row> = async (listfrom, listlength) => {
      calls.push(listfrom);
      return { count: 50, countIsExact: false, rows: ALL.slice(listfrom - 1, listfrom - 1 + listlength) };
    };
    const { user } = renderWithProviders(<Harness fetchPage={fetchPage} />);
    expect(await screen.findByText('Person 1')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'More' }));
    await vi.waitFor(() => expect(calls).toEqual([1, 51]));
    await user.click(screen.getByRole('button', { name: 'More' }));
    await vi.waitFor(() => expect(calls).toEqual([1, 51, 101]));
    await user.click(screen.getByRole('button', { name: 'More' }));
    expect(calls).toEqual([1, 51, 101]);
  });

  it('removes a row in two steps and lowers the count', async () => {
    const { fetchPage } = serverPages(ALL.slice(0, 3));
    const onRemove = vi.fn(async () => true);
    const { user } = renderWithProviders(<Harness fetchPage={fetchPage} onRemove={onRemove} />);
    const row = (await screen.findByText('Person 2')).closest('tr');
    if (!row) throw new Error('no row');
    await user.click(within(row).getByRole('button', { name: 'Remove' }));
    await user.click(within(row).getByRole('button', { name: 'CONFIRM DELETE' }));
    expect(onRemove).toHaveBeenCalledWith({ id: 2, name: 'Person 2' });
    await vi.waitFor(() => expect(screen.queryByText('Person 2')).not.toBeInTheDocument());
    await vi.waitFor(() => expect(screen.getByLabelText('count')).toHaveTextContent('2'));
  });

  it('scrolls sideways in its own box on a phone, and sticks its header to the page on wider screens', async () => {
    const { fetchPage } = serverPages();
    const wide = renderWithProviders(<Harness fetchPage={fetchPage} />);
    const table = await screen.findByRole('table', { name: 'People' });
    expect(table.parentElement).not.toHaveStyle({ overflowX: 'auto' });
    expect(table.querySelector('thead')).toHaveAttribute('data-sticky');
    wide.unmount();

    const matchMedia = vi.spyOn(window, 'matchMedia').mockImplementation(phoneMedia);
    try {
      renderWithProviders(<Harness fetchPage={fetchPage} />);
      const narrowTable = await screen.findByRole('table', { name: 'People' });
      await vi.waitFor(() => expect(narrowTable.parentElement).toHaveStyle({ overflowX: 'auto' }));
      expect(narrowTable.parentElement).toHaveStyle({ position: 'relative' });
      expect(narrowTable).toHaveStyle({ minWidth: '720px' });
      expect(narrowTable.querySelector('thead')).not.toHaveAttribute('data-sticky');
    } finally {
      matchMedia.mockRestore();
    }
  });
});

/** A `MediaQueryList` of a 375 px wide phone: every `max-width` query above it matches. */
function phoneMedia(query: string): MediaQueryList {
  return {
    matches: query.includes('max-width'),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  };
}
