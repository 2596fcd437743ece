import type { AuditEvent } from '@back-office/contract/audit';
import { Group, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useInfiniteList } from '../../../components/infinite-table.tsx';
import { SearchPanel, SearchPanelToggle } from '../../../components/search-panel.tsx';
import { formatNumber } from '../../../lib/format.ts';
import { notifyError } from '../../../lib/notify.ts';
import {
  type AuditFilters,
  auditSearchQueryKey,
  EMPTY_AUDIT_FILTERS,
  searchAuditEvents,
} from '../api/search-audit-events.ts';
import { AuditEventDetails } from './audit-event-details.tsx';
import { AuditSearchFields } from './audit-search-fields.tsx';
import { AuditTable } from './audit-table.tsx';

/** A search as it was run: its filters and its number (a new Search is a new list from position 1). */
type Search = { filters: AuditFilters; number: number };

/**
 * The Audit screen (an addition to the spec), Administrators only: who changed which user, role, product, reference
 * item or setting, when, with the values before and after. The newest changes show at once; the
 * sliding panel filters by kind of record, who and days.
 */
export function AuditScreen() {
  const [filters, setFilters] = useState<AuditFilters>(EMPTY_AUDIT_FILTERS);
  const [search, setSearch] = useState<Search>({ filters: EMPTY_AUDIT_FILTERS, number: 1 });
  const [panelOpened, setPanelOpened] = useState(true);
  const [details, setDetails] = useState<{ opened: boolean; event: AuditEvent | null }>({
    opened: false,
    event: null,
  });

  const list = useInfiniteList<AuditEvent>({
    queryKey: auditSearchQueryKey(search.filters, search.number),
    fetchPage: (listfrom, listlength, signal) =>
      searchAuditEvents(search.filters, listfrom, listlength, signal),
  });

  useEffect(() => {
    if (list.isError) notifyError('getting the audit events');
  }, [list.isError]);

  const handleSearch = () => setSearch((current) => ({ filters, number: current.number + 1 }));
  const handleClear = () => {
    setFilters(EMPTY_AUDIT_FILTERS);
    setSearch((current) => ({ filters: EMPTY_AUDIT_FILTERS, number: current.number + 1 }));
  };

  return (
    <>
      <Group justify="space-between" align="center" mb="lg" wrap="wrap">
        <Group gap="sm" wrap="nowrap">
          <SearchPanelToggle opened={panelOpened} onToggle={() => setPanelOpened((opened) => !opened)} />
          <Title order={1} size="h2">
            Audit
          </Title>
        </Group>
        {list.count !== undefined ? (
          <Text c="dimmed" size="sm" aria-live="polite">
            {list.count === 1 ? '1 change' : `${formatNumber(list.count)} changes`}
          </Text>
        ) : null}
      </Group>

      <SearchPanel
        opened={panelOpened}
        onSearch={handleSearch}
        onClear={handleClear}
        searching={list.isFetching && !list.isFetchingNextPage}
        label="Search audit events"
      >
        <AuditSearchFields values={filters} onChange={setFilters} />
      </SearchPanel>

      <AuditTable list={list} onShowDetails={(event) => setDetails({ opened: true, event })} />
      <AuditEventDetails
        opened={details.opened}
        event={details.event}
        onClose={() => setDetails((current) => ({ ...current, opened: false }))}
      />
    </>
  );
}
