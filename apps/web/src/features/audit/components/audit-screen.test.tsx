import type { AuditEvent } from '@back-office/contract/audit';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch, problemResponse } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { AuditScreen } from './audit-screen.tsx';

/** Local wall-clock time, so the expected `dd/MM/yyyy HH:mm` does not depend on the machine's zone. */
const at = (year: number, month: number, day: number, hours: number, minutes: number) =>
  new Date(year, month - 1, day, hours, minutes).toISOString();

const admin = { id: 1, name: 'Ada Admin', email: 'admin@example.org' };

const renamed: AuditEvent = {
  id: 12,
  occurredAt: at(2026, 3, 7, 9, 5),
  actor: admin,
  entityType: 'product',
  entityList: null,
  entityId: 4,
  entityLabel: 'Calendrier 2028',
  action: 'updated',
  // In the order PostgreSQL's jsonb gives them back (shortest key first), not the form's.
  before: { name: 'Calendrier 2027', active: true, euroPrice: 12.5 },
  after: { name: 'Calendrier 2028', active: false, euroPrice: 1234 },
};

const countryCreated: AuditEvent = {
  id: 11,
  occurredAt: at(2026, 3, 6, 18, 30),
  actor: { id: 2, name: 'Ulysses User', email: 'user@example.org' },
  entityType: 'reference_list_item',
  entityList: 'ctries',
  entityId: 300,
  entityLabel: 'Groenland',
  action: 'created',
  before: null,
  after: { name: 'Groenland', order: 100 },
};

const firstAdministrator: AuditEvent = {
  id: 1,
  occurredAt: at(2026, 1, 2, 8, 0),
  actor: null,
  entityType: 'user',
  entityList: null,
  entityId: 1,
  entityLabel: 'Administrator',
  action: 'created',
  before: null,
  after: { fullName: 'Administrator', email: 'admin@example.org', role: 'Administrator' },
};

const passwordChanged: AuditEvent = {
  ...firstAdministrator,
  id: 13,
  occurredAt: at(2026, 3, 8, 10, 0),
  actor: admin,
  action: 'password_changed',
  after: null,
};

/** Answers every GET /api/audit with `answer(query)` and records the query strings. */
function auditRoutes(answer: (query: URLSearchParams) => { count: number; models: AuditEvent[] } | Response) {
  const queries: URLSearchParams[] = [];
  const requests = mockFetch({
    'GET /api/audit': () => {
      const result = answer(queries[queries.length - 1] ?? new URLSearchParams());
      return result instanceof Response ? result : jsonResponse(result);
    },
  });
  const recordingFetch = globalThis.fetch;
  globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
    queries.push(new URL(String(input), 'http://localhost').searchParams);
    return recordingFetch(input, init);
  }) as typeof fetch;
  return { requests, queries };
}

function rowOf(table: HTMLElement, text: string) {
  const row = within(table)
    .getAllByRole('row')
    .find((candidate) => within(candidate).queryByText(text));
  if (!row) throw new Error(`No row shows ${text}`);
  return row;
}

describe('Audit screen', () => {
  it('shows the newest changes at once: date, who, action, record and before → after', async () => {
    signIn();
    const { queries } = auditRoutes(() => ({
      count: 4,
      models: [passwordChanged, renamed, countryCreated, firstAdministrator],
    }));
    renderWithProviders(<AuditScreen />);

    const table = await screen.findByRole('table', { name: 'Audit events' });
    expect(screen.getByRole('heading', { name: 'Audit' })).toBeInTheDocument();
    expect(screen.getByText('4 changes')).toBeInTheDocument();
    expect(Object.fromEntries(queries[0] ?? [])).toEqual({ listfrom: '1', listlength: '50' });

    const product = rowOf(table, 'Calendrier 2028');
    expect(product).toHaveTextContent('07/03/2026 09:05');
    expect(product).toHaveTextContent('Ada Admin');
    expect(product).toHaveTextContent('Updated');
    expect(product).toHaveTextContent('Product');
    expect(product).toHaveTextContent(
      'Name: Calendrier 2027 → Calendrier 2028; Price (Euro): 12,50 → 1 234,00; Active: Yes → No',
      { normalizeWhitespace: true },
    );

    const country = rowOf(table, 'Groenland');
    expect(country).toHaveTextContent('06/03/2026 18:30');
    expect(country).toHaveTextContent('Ulysses User');
    expect(country).toHaveTextContent('Created');
    expect(country).toHaveTextContent('Country');
    expect(country).toHaveTextContent('Name: Groenland; Order: 100');

    const system = rowOf(table, '02/01/2026 08:00');
    expect(system).toHaveTextContent('System');
    expect(system).toHaveTextContent(
      'Full Name: Administrator; Email: admin@example.org; Role: Administrator',
    );

    const password = rowOf(table, '08/03/2026 10:00');
    expect(password).toHaveTextContent('Password changed');
    expect(password).toHaveTextContent('—');
  });

  it('shows one change in full with its values before and after', async () => {
    signIn();
    auditRoutes(() => ({ count: 1, models: [renamed] }));
    const { user } = renderWithProviders(<AuditScreen />);
    const table = await screen.findByRole('table', { name: 'Audit events' });

    await user.click(
      within(rowOf(table, 'Calendrier 2028')).getByRole('button', {
        name: 'Details of the change to Calendrier 2028',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Change details' });
    expect(dialog).toHaveTextContent(
      'Updated product Calendrier 2028 on 07/03/2026 09:05 by Ada Admin (admin@example.org)',
    );
    const fields = within(dialog).getByRole('table', { name: 'Changed fields' });
    const lines = within(fields)
      .getAllByRole('row')
      .map((row) =>
        within(row)
          .queryAllByRole('cell')
          .concat(within(row).queryAllByRole('columnheader'))
          // Intl's French format groups thousands with a narrow no-break space.
          .map((cell) => cell.textContent?.replace(/\s/g, ' ')),
      );
    expect(lines).toEqual([
      ['Field', 'Before', 'After'],
      ['Name', 'Calendrier 2027', 'Calendrier 2028'],
      ['Price (Euro)', '12,50', '1 234,00'],
      ['Active', 'Yes', 'No'],
    ]);
    const closeButtons = within(dialog).getAllByRole('button', { name: 'Close' });
    await user.click(closeButtons[closeButtons.length - 1] ?? dialog);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('searches with the filters given and says when nothing matches', async () => {
    signIn();
    const { queries } = auditRoutes((query) =>
      query.get('entityType') === 'product' ? { count: 0, models: [] } : { count: 1, models: [renamed] },
    );
    const { user } = renderWithProviders(<AuditScreen />);
    await screen.findByRole('table', { name: 'Audit events' });

    await user.click(screen.getByRole('combobox', { name: 'Record' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'All records',
      'User',
      'Product',
      'Reference list item',
      'Settings',
      'Sign-in',
      'Subscriber',
    ]);
    await user.click(screen.getByRole('option', { name: 'Product' }));
    await user.type(screen.getByLabelText('Changed by'), 'ada{Enter}');

    expect(await screen.findByText('No changes match the search criteria.')).toBeInTheDocument();
    expect(Object.fromEntries(queries.at(-1) ?? [])).toEqual({
      entityType: 'product',
      actor: 'ada',
      listfrom: '1',
      listlength: '50',
    });

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    await screen.findByRole('table', { name: 'Audit events' });
    expect(screen.getByLabelText('Changed by')).toHaveValue('');
    expect(Object.fromEntries(queries.at(-1) ?? [])).toEqual({ listfrom: '1', listlength: '50' });
  });

  it('says so when the events cannot be read', async () => {
    signIn();
    auditRoutes(() => problemResponse(500, 'internal'));
    renderWithProviders(<AuditScreen />);
    // A server error is tried once more before the toast (lib/query-client.ts).
    expect(
      await screen.findByText(
        'Houston - there was a problem getting the audit events. Please try again or contact your system administrator.',
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
  });
});
