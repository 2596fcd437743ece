import { Center, em, Loader, Paper, Table, VisuallyHidden } from '@mantine/core';
import { useMediaQuery, useThrottledCallback } from '@mantine/hooks';
import { type InfiniteData, type QueryKey, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import {
  type CSSProperties,
  memo,
  type ReactElement,
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { ConfirmDelete } from './confirm-delete.tsx';
import { EmptyState } from './empty-state.tsx';
import { FadingRow } from './fading-row.tsx';

/**
 * Infinite, virtualised result tables of the search screens (part 2 §2.1 Subscribers, §2.4 Donations,
 * §2.5 Sales; §4 "Scrolling near the bottom increases the start by the page length and appends the
 * next page"; §9 page size 50, start 1, "infinite scroll distance 2, throttle 300 ms").
 *
 * Two pieces:
 * - {@link useInfiniteList}: pages of `listlength` rows fetched from `listfrom` = 1, 51, 101, ...
 *   through TanStack Query; a new query key is a new search starting again at 1.
 * - {@link InfiniteTable}: renders the loaded rows, only those in view (TanStack Virtual over the
 *   page's own scroll, as the legacy list scrolled with the page), loads the next page when the end
 *   of the table comes within two screen heights of the bottom of the window (checked at most every
 *   300 ms), shows a spinner while loading and the screen's messages, and offers the two-step Remove
 *   with the row fade of §4.
 */

/** §9: page size 50. */
export const DEFAULT_PAGE_SIZE = 50;
/** §9 "infinite scroll distance 2": load more when less than two viewport heights remain below. */
const LOAD_DISTANCE_SCREENS = 2;
/** §9 "throttle 300 ms". */
const SCROLL_THROTTLE_MS = 300;
/**
 * Below this viewport width (Mantine's `sm`, where the app's header folds into a burger) the table
 * scrolls sideways inside its own box at its minimum width, so that the page itself never does.
 */
const NARROW_SCREEN_QUERY = `(max-width: ${em(767.98)})`;
/** The box of the table on a narrow screen: it scrolls sideways and contains what cells position. */
const NARROW_BOX_STYLE: CSSProperties = { overflowX: 'auto', position: 'relative' };
/** Least minimum width of a table on a narrow screen, in pixels. */
const DEFAULT_MIN_WIDTH = 720;
/** Room given on a narrow screen to a column without a width in pixels (none, or a percentage). */
const FLEXIBLE_COLUMN_MIN_WIDTH = 160;
/** Default width of the actions column, in pixels. */
const DEFAULT_ACTIONS_WIDTH = 390;
/** Default row height in pixels (one line of text and a row of small buttons). */
const DEFAULT_ROW_HEIGHT = 49;
const HEADER_HEIGHT = 41;

export type RowId = number | string;

/**
 * One page as the screen's fetcher returns it; `count` is the total number of matches when known,
 * an estimate when `countIsExact` is false (more than 10,000 matches, part 2 §7 searches).
 */
export type InfinitePage<Row> = {
  count?: number | undefined;
  countIsExact?: boolean | undefined;
  rows: Row[];
};

/**
 * Fetches one page: `listfrom` is the 1-based position of its first row, `listlength` the page size
 * (part 2 §4, §7 `listfrom`, `listlength`).
 */
export type FetchPage<Row> = (
  listfrom: number,
  listlength: number,
  signal: AbortSignal,
) => Promise<InfinitePage<Row>>;

/** Options of {@link useInfiniteList}. */
export type UseInfiniteListOptions<Row> = {
  /** Identifies the search (include its filters): a new key starts a new search from position 1. */
  queryKey: QueryKey;
  fetchPage: FetchPage<Row>;
  /** False until there is something to search for: nothing is fetched ("no search yet" state). */
  enabled?: boolean;
  /** Rows per page; 50 by default (§9). */
  pageSize?: number;
  /** The row's id (rows are keyed by it); `row.id` by default. */
  getRowId?: (row: Row) => RowId;
};

/** What {@link useInfiniteList} gives: the loaded rows and what the screen needs around them. */
export type InfiniteList<Row> = {
  /** Every loaded row, in the server's order, without the removed ones. */
  rows: Row[];
  /** Total matches (the server's count minus rows removed since); undefined before the first page. */
  count: number | undefined;
  /** False when `count` is the server's estimate: the list then goes on while pages come back full. */
  countIsExact: boolean;
  /** Whether a search is enabled (false: "no search yet"). */
  enabled: boolean;
  /** The first page is loading. */
  isLoading: boolean;
  /** A further page is loading. */
  isFetchingNextPage: boolean;
  /** Any page is loading (first, next or a refresh). */
  isFetching: boolean;
  hasNextPage: boolean;
  isError: boolean;
  error: unknown;
  /** Loads the next page unless one is loading or none is left. */
  fetchNextPage: () => void;
  /** Drops rows from the loaded list (after the server deleted them) and lowers the count. */
  removeRows: (ids: readonly RowId[]) => void;
  /** Reloads the loaded pages from the server. */
  refresh: () => void;
  getRowId: (row: Row) => RowId;
  pageSize: number;
};

function defaultRowId<Row>(row: Row): RowId {
  return (row as { id: RowId }).id;
}

/**
 * Infinite list of a search screen (§4): pages of `pageSize` rows from `listfrom` 1, then 51, ...
 * The next position is "rows loaded + 1", so rows removed meanwhile do not make a row be skipped.
 * Without an exact `count` from the server, a short page means the end.
 */
export function useInfiniteList<Row>({
  queryKey,
  fetchPage,
  enabled = true,
  pageSize = DEFAULT_PAGE_SIZE,
  getRowId = defaultRowId,
}: UseInfiniteListOptions<Row>): InfiniteList<Row> {
  const queryClient = useQueryClient();
  const queryKeyRef = useRef(queryKey);
  queryKeyRef.current = queryKey;
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, pageSize, signal),
    initialPageParam: 1,
    getNextPageParam: (lastPage, allPages) => {
      if (lastPage.rows.length === 0) return undefined;
      const loaded = allPages.reduce((total, page) => total + page.rows.length, 0);
      const first = allPages[0];
      if (first?.count !== undefined && first.countIsExact !== false)
        return loaded < first.count ? loaded + 1 : undefined;
      return lastPage.rows.length >= pageSize ? loaded + 1 : undefined;
    },
    enabled,
  });

  const pages = query.data?.pages;
  const rows = pages ? pages.flatMap((page) => page.rows) : [];
  const serverCount = pages?.[0]?.count;
  const count = pages ? (serverCount ?? (query.hasNextPage ? undefined : rows.length)) : undefined;

  const { fetchNextPage: fetchNext, hasNextPage, isFetchingNextPage, refetch } = query;
  const fetchNextPage = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNext();
  }, [fetchNext, hasNextPage, isFetchingNextPage]);

  const removeRows = useCallback(
    (ids: readonly RowId[]) => {
      const gone = new Set(ids);
      queryClient.setQueryData<InfiniteData<InfinitePage<Row>, number>>(queryKeyRef.current, (data) => {
        if (!data) return data;
        let removed = 0;
        const nextPages = data.pages.map((page) => {
          const kept = page.rows.filter((row) => !gone.has(getRowId(row)));
          removed += page.rows.length - kept.length;
          return { ...page, rows: kept };
        });
        const first = nextPages[0];
        if (first && first.count !== undefined)
          nextPages[0] = { ...first, count: Math.max(0, first.count - removed) };
        return { ...data, pages: nextPages };
      });
    },
    [queryClient, getRowId],
  );

  return {
    rows,
    count,
    countIsExact: pages?.[0]?.countIsExact !== false,
    enabled,
    isLoading: enabled && query.isPending,
    isFetchingNextPage,
    isFetching: query.isFetching,
    hasNextPage,
    isError: query.isError,
    error: query.error,
    fetchNextPage,
    removeRows,
    refresh: () => void refetch(),
    getRowId,
    pageSize,
  };
}

/** One column of an {@link InfiniteTable}. */
export type InfiniteTableColumn<Row> = {
  /** Unique key of the column. */
  key: string;
  header: ReactNode;
  /** The cell's content for one row. Keep it on one line: rows have a fixed height. */
  render: (row: Row) => ReactNode;
  /** CSS width of the column (the table's layout is fixed), e.g. `240` or `'30%'`. */
  width?: number | string;
  align?: 'left' | 'center' | 'right';
};

/** Props of {@link InfiniteTable}. */
export type InfiniteTableProps<Row> = {
  /** The rows and their loading state, from {@link useInfiniteList}. */
  list: InfiniteList<Row>;
  columns: InfiniteTableColumn<Row>[];
  /** Accessible name of the table, e.g. "Subscribers". */
  label: string;
  /** Buttons of a row shown in the last column, before Remove (e.g. View, Edit). */
  rowActions?: (row: Row) => ReactNode;
  /**
   * Adds the two-step Remove (Remove, then Cancel / CONFIRM DELETE; §4 Row delete). Deletes the row's
   * item and says so (toasts are the caller's); resolve true when the server deleted it: the row then
   * fades out (300 ms) and leaves the list, and the count goes down by one.
   */
  onRemove?: (row: Row) => Promise<boolean>;
  /**
   * Width of the actions column (default 390 px when there are actions: room for two buttons plus
   * Cancel and CONFIRM DELETE while a Remove is confirmed).
   */
  actionsWidth?: number | string;
  /** Shown when the search is not enabled, e.g. "Please enter some search criteria.". */
  idleMessage?: string;
  /** Shown when a search found nothing, e.g. "No subscribers match the search criteria.". */
  emptyMessage?: string;
  /** Replaces the computed message (idle / empty) when set. */
  message?: ReactNode;
  /** Row height in pixels (49 by default). */
  rowHeight?: number;
  /**
   * Where the header sticks when the page scrolls (CSS length); below the app's header by default.
   */
  stickyHeaderOffset?: number | string;
  /**
   * Width in pixels under which the table does not shrink on a narrow screen (a phone): it then
   * scrolls sideways in its own box instead of widening the page. By default the pixel widths of the
   * columns plus 160 for each other column, and at least 720.
   */
  minWidth?: number;
};

/**
 * The infinite result table (see the top of this file). Rows are keyed by id and virtualised, so
 * thousands of loaded rows scroll smoothly with the page; the header sticks under the app's header. A spinner shows while the first
 * page loads (instead of the table) and under the rows while a further page loads. Messages show
 * instead of the table: `idleMessage` before any search, `emptyMessage` when nothing matched.
 */
export function InfiniteTable<Row>({
  list,
  columns,
  label,
  rowActions,
  onRemove,
  actionsWidth,
  idleMessage,
  emptyMessage,
  message,
  rowHeight = DEFAULT_ROW_HEIGHT,
  stickyHeaderOffset = 'var(--app-shell-header-offset, 0px)',
  minWidth,
}: InfiniteTableProps<Row>) {
  const narrow = useMediaQuery(NARROW_SCREEN_QUERY) ?? false;
  const tableRef = useRef<HTMLTableElement>(null);
  const shownIds = useRef(new Set<RowId>());
  const [scrollMargin, setScrollMargin] = useState(0);
  const { rows, getRowId, hasNextPage, isFetchingNextPage, fetchNextPage } = list;

  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: () => rowHeight,
    overscan: 12,
    scrollMargin,
    getItemKey: (index) => {
      const row = rows[index];
      return row === undefined ? index : getRowId(row);
    },
    initialRect: { width: 1024, height: 768 },
  });

  // Where the rows start in the page: it moves when something above (the filter panel) slides.
  const measureScrollMargin = useCallback(() => {
    const body = tableRef.current?.tBodies[0];
    if (!body) return;
    const top = body.getBoundingClientRect().top + window.scrollY;
    setScrollMargin((current) => (Math.abs(current - top) < 1 ? current : top));
  }, []);
  // Measured when the table appears, then on resizes only: measuring on every render (every
  // scrolled frame) forced a layout of the table in each frame.
  const tableShown = list.enabled && !list.isLoading && rows.length > 0;
  useLayoutEffect(() => {
    if (tableShown) measureScrollMargin();
  }, [tableShown, measureScrollMargin]);
  useEffect(() => {
    const observer = new ResizeObserver(() => measureScrollMargin());
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [measureScrollMargin]);

  // Measured from the virtualiser's sizes, not the DOM: rows fading in are not in the DOM yet.
  const checkNearEnd = useCallback(() => {
    const table = tableRef.current;
    // No layout (a test's DOM, a hidden screen): nothing to measure.
    if (!table || table.getBoundingClientRect().width === 0) return;
    if (!hasNextPage || isFetchingNextPage) return;
    const viewport = window.innerHeight;
    const listBottom = scrollMargin + virtualizer.getTotalSize();
    const remaining = listBottom - (window.scrollY + viewport);
    if (remaining <= viewport * LOAD_DISTANCE_SCREENS) fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, scrollMargin, virtualizer]);
  const handleScroll = useThrottledCallback(() => {
    // Something above the table may have moved without resizing the page: checked here too.
    measureScrollMargin();
    checkNearEnd();
  }, SCROLL_THROTTLE_MS);

  useEffect(() => {
    window.addEventListener('scroll', handleScroll, { passive: true });
    window.addEventListener('resize', handleScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', handleScroll);
      window.removeEventListener('resize', handleScroll);
    };
  }, [handleScroll]);

  // A short first page (or a removed row) may leave nothing to scroll: check after each change.
  useEffect(() => {
    if (rows.length > 0) checkNearEnd();
  }, [rows.length, checkNearEnd]);

  const [removedIds, setRemovedIds] = useState<ReadonlySet<RowId>>(new Set());
  const { removeRows } = list;
  // Stable across the re-renders that scrolling causes, so that the memoised rows already shown are
  // not rendered again on every frame: thousands of loaded rows must still scroll without jank.
  const cellStyle = useMemo<CSSProperties>(
    () => ({ height: rowHeight, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }),
    [rowHeight],
  );
  const handleRemoved = useCallback(
    (id: RowId) => {
      removeRows([id]);
      setRemovedIds((current) => {
        const next = new Set(current);
        next.delete(id);
        return next;
      });
    },
    [removeRows],
  );
  const handleRemove = useMemo(
    () =>
      onRemove
        ? async (row: Row) => {
            const deleted = await onRemove(row);
            if (deleted) setRemovedIds((current) => new Set(current).add(getRowId(row)));
            return deleted;
          }
        : undefined,
    [onRemove, getRowId],
  );

  if (!list.enabled) {
    return message ?? (idleMessage ? <EmptyState message={idleMessage} /> : null);
  }
  if (list.isLoading) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading..." />
      </Center>
    );
  }
  if (list.isError && rows.length === 0) return message ?? null;
  if (rows.length === 0) {
    return message ?? (emptyMessage ? <EmptyState message={emptyMessage} /> : null);
  }

  const withActions = Boolean(rowActions || onRemove);
  const narrowWidth =
    minWidth ?? defaultMinWidth(columns, withActions ? (actionsWidth ?? DEFAULT_ACTIONS_WIDTH) : 0);
  const columnCount = columns.length + (withActions ? 1 : 0);
  const items = virtualizer.getVirtualItems();
  const totalSize = virtualizer.getTotalSize();
  const paddingTop = Math.max(0, (items[0]?.start ?? scrollMargin) - scrollMargin);
  const paddingBottom =
    items.length > 0 ? Math.max(0, totalSize - ((items[items.length - 1]?.end ?? 0) - scrollMargin)) : 0;
  // On a phone the table keeps its minimum width and scrolls sideways inside the box around it.
  const table = (
    <Table
      ref={tableRef}
      // A header cannot stick to the window from inside a box that scrolls sideways (phones).
      stickyHeader={!narrow}
      stickyHeaderOffset={stickyHeaderOffset}
      highlightOnHover
      verticalSpacing={0}
      horizontalSpacing="md"
      aria-label={label}
      aria-rowcount={(list.count ?? rows.length) + 1}
      style={{ tableLayout: 'fixed', minWidth: narrow ? narrowWidth : undefined }}
    >
      <Table.Thead>
        <Table.Tr style={{ height: HEADER_HEIGHT }}>
          {columns.map((column) => (
            <Table.Th key={column.key} w={column.width} ta={column.align}>
              {column.header}
            </Table.Th>
          ))}
          {withActions ? (
            <Table.Th w={actionsWidth ?? DEFAULT_ACTIONS_WIDTH}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          ) : null}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {paddingTop > 0 ? (
          <tr aria-hidden style={{ height: paddingTop }}>
            <td colSpan={columnCount} style={{ padding: 0, border: 0 }} />
          </tr>
        ) : null}
        {items.map((item) => {
          const row = rows[item.index];
          if (row === undefined) return null;
          const id = getRowId(row);
          return (
            <VirtualRow
              key={String(id)}
              row={row}
              id={id}
              shownIds={shownIds.current}
              removed={removedIds.has(id)}
              columns={columns}
              cellStyle={cellStyle}
              withActions={withActions}
              rowActions={rowActions}
              onRemove={handleRemove}
              onRemoved={handleRemoved}
            />
          );
        })}
        {paddingBottom > 0 ? (
          <tr aria-hidden style={{ height: paddingBottom }}>
            <td colSpan={columnCount} style={{ padding: 0, border: 0 }} />
          </tr>
        ) : null}
      </Table.Tbody>
    </Table>
  );
  return (
    <Paper withBorder radius="md">
      {/* The same element either way: the table is not mounted again when the screen turns. Positioned,
      so that absolutely placed parts of cells (hidden labels, checkbox inputs) scroll with the box
      instead of widening the page. */}
      <div style={narrow ? NARROW_BOX_STYLE : undefined}>{table}</div>
      {isFetchingNextPage ? (
        <Center py="md">
          <Loader size="sm" aria-label="Loading more rows" />
        </Center>
      ) : null}
    </Paper>
  );
}

/** A table's least width on a narrow screen: every column keeps room for its content (no overlap). */
function defaultMinWidth<Row>(columns: InfiniteTableColumn<Row>[], actionsWidth: number | string): number {
  const widths = [...columns.map((column) => column.width), actionsWidth];
  const total = widths.reduce<number>(
    (sum, width) => sum + (typeof width === 'number' ? width : FLEXIBLE_COLUMN_MIN_WIDTH),
    0,
  );
  return Math.max(DEFAULT_MIN_WIDTH, total);
}

type VirtualRowProps<Row> = {
  row: Row;
  id: RowId;
  /** Ids of the rows shown before: such a row does not fade in again when scrolled back into view. */
  shownIds: Set<RowId>;
  removed: boolean;
  columns: InfiniteTableColumn<Row>[];
  cellStyle: CSSProperties;
  withActions: boolean;
  rowActions: ((row: Row) => ReactNode) | undefined;
  onRemove: ((row: Row) => Promise<boolean>) | undefined;
  onRemoved: (id: RowId) => void;
};

/**
 * One row of an {@link InfiniteTable}, memoised: while the page scrolls, only the rows coming into
 * view render (every prop is stable for a row already shown).
 */
const VirtualRow = memo(function VirtualRow<Row>({
  row,
  id,
  shownIds,
  removed,
  columns,
  cellStyle,
  withActions,
  rowActions,
  onRemove,
  onRemoved,
}: VirtualRowProps<Row>) {
  // Decided when the row mounts: a row shown before (scrolled out and back) does not fade in again.
  const [appear] = useState(() => !shownIds.has(id));
  useEffect(() => {
    shownIds.add(id);
  }, [shownIds, id]);
  return (
    <FadingRow appear={appear} removed={removed} onRemoved={() => onRemoved(id)}>
      {columns.map((column) => (
        <Table.Td key={column.key} ta={column.align} style={cellStyle}>
          {column.render(row)}
        </Table.Td>
      ))}
      {withActions ? (
        <Table.Td style={cellStyle}>
          <RowActions actions={rowActions?.(row)} onRemove={onRemove ? () => onRemove(row) : undefined} />
        </Table.Td>
      ) : null}
    </FadingRow>
  );
}) as <Row>(props: VirtualRowProps<Row>) => ReactElement;

function RowActions({
  actions,
  onRemove,
}: {
  actions: ReactNode;
  onRemove: (() => Promise<boolean>) | undefined;
}) {
  return (
    <div
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 'var(--mantine-spacing-xs)',
        justifyContent: 'flex-end',
        flexWrap: 'nowrap',
      }}
    >
      {actions}
      {onRemove ? <ConfirmDelete onConfirm={onRemove} /> : null}
    </div>
  );
}
