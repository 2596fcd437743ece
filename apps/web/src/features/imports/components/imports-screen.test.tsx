import type {
  Import,
  ImportDryRun,
  ImportDryRunRow,
  ImportMapping,
  ImportSummary,
} from '@back-office/contract/imports';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  jsonResponse,
  mockFetch,
  problemResponse,
  type RecordedRequest,
} from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signIn } from '../../../testing/session.ts';
import { IMPORT_POLL_MS } from '../api/get-import.ts';
import { ImportsScreen } from './imports-screen.tsx';

const HEADERS = ['Prénom', 'Nom', 'Courriel', 'Ville', 'Code postal', 'Pays'];
const SAMPLES = [
  ['Jean', 'Zoé'],
  ['Dupont', 'Martin'],
  ['jean.dupont@example.org', 'zoe@example.org'],
  ['Lyon', 'Genève'],
  ['69001', '1201'],
  ['France', 'Suisse'],
];

/** The server's guess for those headers: the six fields, nothing else. */
const GUESS: ImportMapping = { firstName: 0, lastName: 1, email: 2, town: 3, postcode: 4, country: 5 };

const uploaded: Import = {
  id: 5,
  kind: 'subscribers',
  fileName: 'members.csv',
  status: 'uploaded',
  columns: HEADERS.map((header, index) => ({ index, header, samples: SAMPLES[index] ?? [] })),
  rowCount: 62,
  mapping: GUESS,
  options: {
    dateFormat: 'DD/MM/YYYY',
    decimalSeparator: ',',
    createMissingReferences: false,
    defaultCurrencyId: null,
  },
  dryRun: null,
  processed: 0,
  total: 0,
  created: 0,
  merged: 0,
  skipped: 0,
  errors: [],
  failure: null,
  createdBy: 'Ada Admin',
  createdAt: '2026-03-07T13:05:00.000Z',
  committedAt: null,
  undoneAt: null,
};

/**
 * Row `n` of a file: row 2 has a bad email, rows 3 and 55 match existing subscribers (42 and 43), row 4
 * repeats row 1 of the file.
 */
function fileRow(n: number): ImportDryRunRow {
  const values = {
    firstName: `Prénom${n}`,
    lastName: `Nom${n}`,
    email: n === 2 ? 'pas-un-courriel' : `personne${n}@example.org`,
    town: 'Lyon',
    postcode: '69001',
    country: 'France',
  };
  const row: ImportDryRunRow = {
    row: n,
    status: 'valid',
    values,
    errors: [],
    matchId: null,
    matchReasons: [],
  };
  if (n === 2) {
    return {
      ...row,
      status: 'invalid',
      errors: [{ field: 'email', message: 'The email address is not valid.' }],
    };
  }
  if (n === 3 || n === 55)
    return { ...row, status: 'duplicate', matchId: n === 3 ? 42 : 43, matchReasons: ['email'] };
  if (n === 4) return { ...row, status: 'duplicate', matchReasons: ['file'] };
  return row;
}

/** A fake dry run of a file of `count` rows: its totals, and the answer to a request for a page. */
function dryRunOf(count: number) {
  const rows = Array.from({ length: count }, (_, index) => fileRow(index + 1));
  const totals = {
    valid: rows.filter((row) => row.status === 'valid').length,
    invalid: rows.filter((row) => row.status === 'invalid').length,
    duplicates: rows.filter((row) => row.status === 'duplicate').length,
  };
  const answer = (request: RecordedRequest): Response => {
    const status = request.query.get('status') ?? '';
    const from = Number(request.query.get('listfrom') ?? '1');
    const length = Number(request.query.get('listlength') ?? '50');
    const matching = rows.filter((row) => status === '' || row.status === status);
    const page: ImportDryRun = {
      ...totals,
      count: matching.length,
      rows: matching.slice(from - 1, from - 1 + length),
    };
    return jsonResponse(page);
  };
  return { totals, answer };
}

/** A currencies list as `GET /api/currencies` answers it. */
const currencies = [
  { id: 1, name: 'EURO', symbol: '€', order: 1 },
  { id: 2, name: 'Swiss Franc', symbol: 'CHF', order: 2 },
];

function summaryOf({ columns: _columns, ...rest }: Import): ImportSummary {
  return rest;
}

/** Answers the polls with `answers` in turn, then the last one again. */
function inTurn(...answers: Import[]) {
  let next = 0;
  return () => jsonResponse(answers[Math.min(next++, answers.length - 1)]);
}

async function elapse(ms = IMPORT_POLL_MS) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

/** The row of the checked rows' table whose Row cell reads `rowNumber` (plain DOM: role queries are slow on 50 rows). */
function rowOf(table: HTMLElement, rowNumber: string): HTMLElement | undefined {
  return [...table.querySelectorAll<HTMLElement>('tbody tr')].find(
    (row) => row.querySelector('td')?.textContent === rowNumber,
  );
}

/** The rows of a table's body. */
function bodyRows(table: HTMLElement): number {
  return table.querySelectorAll('tbody tr').length;
}

describe('ImportsScreen', () => {
  it('uploads a file, prefills the mapping, checks it, shows an error cell, takes a decision, imports and follows the progress', async () => {
    signIn();
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
      shouldAdvanceTime: true,
    });
    const dryRun = dryRunOf(5);
    let history: ImportSummary[] = [];
    const queued: Import = { ...uploaded, rowCount: 5, status: 'queued', dryRun: dryRun.totals, total: 5 };
    const running: Import = { ...queued, status: 'running', processed: 2 };
    const committed: Import = {
      ...queued,
      status: 'committed',
      processed: 5,
      created: 2,
      merged: 1,
      skipped: 1,
      committedAt: '2026-03-07T13:10:00.000Z',
    };
    const requests = mockFetch({
      'GET /api/imports': () => jsonResponse(history),
      'GET /api/currencies': () => jsonResponse(currencies),
      'POST /api/imports': () => {
        history = [summaryOf(uploaded)];
        return jsonResponse({ ...uploaded, rowCount: 5 }, 201);
      },
      'PUT /api/imports/5/mapping': (request) =>
        jsonResponse({ ...uploaded, rowCount: 5, ...(request.body as Pick<Import, 'mapping' | 'options'>) }),
      'POST /api/imports/5/dry-run': dryRun.answer,
      'POST /api/imports/5/commit': () => {
        history = [summaryOf(committed)];
        return jsonResponse(queued, 202);
      },
      'GET /api/imports/5': inTurn(running, committed),
    });
    const { user } = renderWithProviders(<ImportsScreen />, { path: '/imports' });

    // Upload.
    expect(await screen.findByText('No imports yet.')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Kind' })).toHaveValue('Subscribers');
    const fileInput = screen.getByLabelText('File to import');
    expect(fileInput).toHaveAttribute('accept', '.csv,.xlsx');
    await user.upload(fileInput, new File(['Prénom;Nom\n'], 'members.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    // Mapping, prefilled with the server's guess; the columns with their samples.
    expect(await screen.findByRole('heading', { name: 'members.csv' })).toHaveFocus();
    const sent = requests.find((request) => request.method === 'POST' && request.path === '/api/imports');
    const form = sent?.body as FormData;
    expect(form.get('kind')).toBe('subscribers');
    expect((form.get('file') as File).name).toBe('members.csv');
    const columns = screen.getByRole('table', { name: 'Columns of the file' });
    expect(within(columns).getByText('Courriel')).toBeInTheDocument();
    expect(within(columns).getByText('jean.dupont@example.org · zoe@example.org')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'First name' })).toHaveDisplayValue('Prénom (Jean)');
    expect(screen.getByRole('combobox', { name: 'Email' })).toHaveDisplayValue(
      'Courriel (jean.dupont@example.org)',
    );
    expect(screen.getByRole('combobox', { name: 'Phone' })).toHaveDisplayValue('— not imported —');
    expect(screen.getByRole('combobox', { name: 'Date format' })).toHaveDisplayValue(
      'DD/MM/YYYY (31/12/2025)',
    );

    await user.selectOptions(screen.getByRole('combobox', { name: 'Default currency' }), 'EURO');
    await user.click(screen.getByRole('checkbox', { name: /Create missing reference items/ }));
    await user.click(screen.getByRole('button', { name: 'Check' }));

    // The mapping is saved, then the dry run asked for its first page of all rows.
    const table = await screen.findByRole('table', { name: 'Checked rows' });
    const put = requests.find((request) => request.method === 'PUT');
    expect(put?.body).toMatchObject({
      mapping: { ...GUESS, phone: null, tags: null },
      options: {
        dateFormat: 'DD/MM/YYYY',
        decimalSeparator: ',',
        createMissingReferences: true,
        defaultCurrencyId: 1,
      },
    });
    const firstDryRun = requests.find((request) => request.path === '/api/imports/5/dry-run');
    expect(firstDryRun?.query.toString()).toBe('status=&listfrom=1&listlength=50');
    const totals = screen.getByRole('list', { name: 'Totals of the check' });
    expect(within(totals).getByText('Valid').nextSibling).toHaveTextContent('2');
    expect(within(totals).getByText('Invalid').nextSibling).toHaveTextContent('1');
    expect(within(totals).getByText('Duplicates').nextSibling).toHaveTextContent('2');
    expect(bodyRows(table)).toBe(5);

    // The invalid row: its email cell shows the value and, under it, the message.
    const invalidRow = rowOf(table, '2') as HTMLElement;
    expect(within(invalidRow).getByText('Invalid')).toBeInTheDocument();
    const message = within(invalidRow).getByText('The email address is not valid.', { exact: false });
    expect(message).toHaveTextContent('Error: The email address is not valid.');
    const errorCell = message.closest('td') as HTMLElement;
    expect(errorCell).toHaveTextContent('pas-un-courriel');
    expect(errorCell.style.backgroundColor).toContain('red-0');

    // A duplicate of a subscriber: opened in a new tab; Skip by default, Merge chosen.
    const duplicateRow = rowOf(table, '3') as HTMLElement;
    const link = within(duplicateRow).getByRole('link', { name: 'Subscriber no. 42 (opens in a new tab)' });
    expect(link).toHaveAttribute('href', '/subscriber/42');
    expect(link).toHaveAttribute('target', '_blank');
    expect(within(duplicateRow).getByText('same email')).toBeInTheDocument();
    const decision = within(duplicateRow).getByRole('radiogroup', { name: 'Row 3: what to do' });
    expect(within(decision).getByRole('radio', { name: 'Skip' })).toBeChecked();
    // A row repeating an earlier row of the file matches no subscriber: it cannot be merged.
    const repeatRow = rowOf(table, '4') as HTMLElement;
    expect(within(repeatRow).getByText('repeats an earlier row of the file')).toBeInTheDocument();
    expect(within(repeatRow).queryByRole('link')).not.toBeInTheDocument();
    expect(within(repeatRow).queryByRole('radio', { name: 'Merge' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import 2 rows' })).toBeEnabled();
    await user.click(within(decision).getByRole('radio', { name: 'Merge' }));

    // Import: the decision is sent, then the progress is polled until the end.
    await user.click(screen.getByRole('button', { name: 'Import 3 rows' }));
    expect(await screen.findByText(/Waiting for its turn/)).toHaveTextContent('0 / 5 rows');
    expect(screen.getByRole('heading', { name: 'members.csv' })).toHaveFocus();
    const commit = requests.find((request) => request.path === '/api/imports/5/commit');
    expect(commit?.body).toEqual({ decisions: [{ row: 3, action: 'merge' }] });
    await elapse();
    expect(
      await screen.findByRole('progressbar', { name: 'Import of members.csv: 2 / 5 rows' }),
    ).toBeInTheDocument();
    await elapse();
    expect(await screen.findByText('2 created, 1 merged, 1 skipped.')).toBeInTheDocument();

    // The history shows it, and polling has stopped.
    const past = screen.getByRole('table', { name: 'Past imports' });
    await waitFor(() => expect(within(past).getByText('Imported')).toBeInTheDocument());
    const polls = () =>
      requests.filter((request) => request.method === 'GET' && request.path === '/api/imports/5');
    const pollsAtEnd = polls().length;
    await elapse(5 * IMPORT_POLL_MS);
    expect(polls()).toHaveLength(pollsAtEnd);
  });

  it('pages the dry run 50 rows at a time, keeps the decisions across pages and filters by status', async () => {
    signIn();
    const dryRun = dryRunOf(62);
    const checked: Import = { ...uploaded, rowCount: 62, status: 'checked', dryRun: dryRun.totals };
    const requests = mockFetch({
      'GET /api/imports': () => jsonResponse([summaryOf(checked)]),
      'GET /api/imports/5': () => jsonResponse(checked),
      'GET /api/currencies': () => jsonResponse(currencies),
      'POST /api/imports/5/dry-run': dryRun.answer,
      'POST /api/imports/5/commit': () => jsonResponse({ ...checked, status: 'queued', total: 62 }, 202),
    });
    const { user } = renderWithProviders(<ImportsScreen />, { path: '/imports?id=5' });
    const table = await screen.findByRole('table', { name: 'Checked rows' });
    expect(bodyRows(table)).toBe(50);
    await user.click(within(rowOf(table, '3') as HTMLElement).getByRole('radio', { name: 'Merge' }));

    await user.click(screen.getByRole('button', { name: '2' }));
    await waitFor(() => expect(rowOf(table, '55')).toBeDefined());
    expect(bodyRows(table)).toBe(12);
    await user.click(within(rowOf(table, '55') as HTMLElement).getByRole('radio', { name: 'Create' }));
    await user.click(screen.getByRole('button', { name: '1' }));
    await waitFor(() => expect(rowOf(table, '3')).toBeDefined());
    expect(within(rowOf(table, '3') as HTMLElement).getByRole('radio', { name: 'Merge' })).toBeChecked();

    await user.click(screen.getByRole('radio', { name: 'Invalid' }));
    await waitFor(() => expect(bodyRows(table)).toBe(1));
    expect(rowOf(table, '2')).toBeDefined();
    expect(
      requests
        .filter((request) => request.path === '/api/imports/5/dry-run')
        .map((request) => request.query.toString()),
    ).toEqual([
      'status=&listfrom=1&listlength=50',
      'status=&listfrom=51&listlength=50',
      'status=invalid&listfrom=1&listlength=50',
    ]);

    // 58 valid rows, and the two duplicates told to be merged and created.
    await user.click(screen.getByRole('button', { name: 'Import 60 rows' }));
    await screen.findByText(/Waiting for its turn/);
    expect(requests.find((request) => request.path === '/api/imports/5/commit')?.body).toEqual({
      decisions: [
        { row: 3, action: 'merge' },
        { row: 55, action: 'create' },
      ],
    });
  });

  it('shows the reason the server refuses a file', async () => {
    signIn();
    mockFetch({
      'GET /api/imports': () => jsonResponse([]),
      'POST /api/imports': () =>
        problemResponse(400, 'imports.no_header', { detail: 'The file has no header row.' }),
    });
    const { user } = renderWithProviders(<ImportsScreen />, { path: '/imports' });
    await screen.findByText('No imports yet.');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(screen.getByText('Choose a CSV or XLSX file.')).toBeInTheDocument();

    const fileInput = screen.getByLabelText('File to import');
    await user.upload(fileInput, new File([';;\n'], 'empty.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const alert = await screen.findByRole('alert', { name: 'The file was not uploaded' });
    expect(alert).toHaveTextContent('The file has no header row.');
    expect(screen.getByRole('heading', { name: 'New import' })).toBeInTheDocument();
  });

  it('asks for a column for each required field before checking', async () => {
    signIn();
    const resumed: Import = { ...uploaded, mapping: { ...GUESS, lastName: null } };
    const requests = mockFetch({
      'GET /api/imports': () => jsonResponse([summaryOf(resumed)]),
      'GET /api/imports/5': () => jsonResponse(resumed),
      'GET /api/currencies': () => jsonResponse(currencies),
    });
    const { user } = renderWithProviders(<ImportsScreen />, { path: '/imports?id=5' });
    await screen.findByRole('heading', { name: 'members.csv' });
    expect(screen.getByRole('combobox', { name: 'Last name' })).toHaveDisplayValue('— not imported —');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByText('Choose the column of Last name.')).toBeInTheDocument();
    expect(requests.filter((request) => request.method !== 'GET')).toHaveLength(0);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Last name' }), 'Nom (Dupont)');
    expect(screen.queryByText('Choose the column of Last name.')).not.toBeInTheDocument();
  });

  it('resumes a checked import from the history with its dry run', async () => {
    signIn();
    const dryRun = dryRunOf(5);
    const checked: Import = {
      ...uploaded,
      id: 8,
      fileName: 'older.csv',
      status: 'checked',
      dryRun: dryRun.totals,
    };
    mockFetch({
      'GET /api/imports': () => jsonResponse([summaryOf(checked)]),
      'GET /api/imports/8': () => jsonResponse(checked),
      'GET /api/currencies': () => jsonResponse(currencies),
      'POST /api/imports/8/dry-run': dryRun.answer,
    });
    const { user } = renderWithProviders(<ImportsScreen />, { path: '/imports' });
    const past = await screen.findByRole('table', { name: 'Past imports' });
    const row = within(past).getByText('older.csv').closest('tr') as HTMLElement;
    expect(within(row).getByText('07/03/2026', { exact: false })).toBeInTheDocument();
    expect(within(row).getByText('Checked')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Resume older.csv' }));
    expect(await screen.findByRole('heading', { name: 'older.csv' })).toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'Checked rows' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import 2 rows' })).toBeEnabled();

    // Changing the mapping puts the results out of date until checked again.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Phone' }), 'Ville (Lyon)');
    expect(screen.getByRole('button', { name: 'Import 2 rows' })).toBeDisabled();
    expect(screen.getByText('The mapping changed')).toBeInTheDocument();
  });

  it("undoes a committed import after a confirmation, and shows the server's reason when it cannot", async () => {
    signIn();
    const committed: ImportSummary = {
      ...summaryOf(uploaded),
      id: 4,
      fileName: 'spring.xlsx',
      status: 'committed',
      created: 12,
      merged: 2,
      skipped: 3,
      committedAt: '2026-03-01T09:30:00.000Z',
    };
    const other: ImportSummary = { ...committed, id: 3, fileName: 'winter.csv' };
    let history = [committed, other];
    const requests = mockFetch({
      'GET /api/imports': () => jsonResponse(history),
      'POST /api/imports/4/undo': () =>
        problemResponse(409, 'imports.changed_since', {
          detail: 'Subscribers changed since the import: Jean Dupont (42), Zoé Martin (43).',
        }),
      'POST /api/imports/3/undo': () => {
        history = [committed, { ...other, status: 'undone', undoneAt: '2026-03-08T10:00:00.000Z' }];
        return jsonResponse({ ...uploaded, ...history[1] });
      },
    });
    const { user } = renderWithProviders(<ImportsScreen />, { path: '/imports' });
    const past = await screen.findByRole('table', { name: 'Past imports' });
    const row = within(past).getByText('spring.xlsx').closest('tr') as HTMLElement;
    expect(row).toHaveTextContent('Subscribers');
    expect(row).toHaveTextContent('Ada Admin');
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(expect.arrayContaining(['12', '2', '3']));

    expect(within(row).getByRole('button', { name: 'Open spring.xlsx' })).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Undo spring.xlsx' }));
    let dialog = await screen.findByRole('dialog', { name: 'Undo this import?' });
    expect(dialog).toHaveTextContent('12 subscribers created (removed), 2 subscribers merged');
    await user.click(within(dialog).getByRole('button', { name: 'Undo import' }));
    const refusal = await screen.findByRole('alert', { name: "'spring.xlsx' was not undone" });
    expect(refusal).toHaveTextContent(
      'Subscribers changed since the import: Jean Dupont (42), Zoé Martin (43).',
    );
    expect(within(row).getByText('Imported')).toBeInTheDocument();

    const otherRow = within(past).getByText('winter.csv').closest('tr') as HTMLElement;
    await user.click(within(otherRow).getByRole('button', { name: 'Undo winter.csv' }));
    dialog = await screen.findByRole('dialog', { name: 'Undo this import?' });
    await user.click(within(dialog).getByRole('button', { name: 'Undo import' }));
    expect(await screen.findByText("The import of 'winter.csv' was undone.")).toBeInTheDocument();
    await waitFor(() => expect(within(otherRow).getByText('Undone')).toBeInTheDocument());
    expect(within(otherRow).queryByRole('button', { name: 'Undo winter.csv' })).not.toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'POST').map((request) => request.path)).toEqual([
      '/api/imports/4/undo',
      '/api/imports/3/undo',
    ]);
  });
});
