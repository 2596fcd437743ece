import type { ImportStatus } from '@back-office/contract/imports';
import { Alert, Badge, Button, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { formatFrenchDateTime } from '../../../lib/format.ts';
import { isCommitting, useImport } from '../api/get-import.ts';
import { importHistoryQueryKey } from '../api/get-imports.ts';
import { countText, IMPORT_KIND_LABELS, IMPORT_STATUS_LABELS } from '../import-labels.ts';
import { ImportDryRun } from './import-dry-run.tsx';
import { ImportHistory } from './import-history.tsx';
import { ImportMappingForm } from './import-mapping-form.tsx';
import { ImportProgress } from './import-progress.tsx';
import { ImportUploadForm } from './import-upload-form.tsx';

/** The import of `?id=`, or null for none (or a malformed one). */
function importIdOf(value: string | null): number | null {
  const id = Number(value);
  return value && Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * Refreshes the history when the open import's job ends (committed or failed), since the screen
 * polls only the import itself.
 */
function useHistoryRefreshWhenDone(status: ImportStatus | undefined) {
  const queryClient = useQueryClient();
  const previous = useRef(status);
  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (was && status && isCommitting(was) && !isCommitting(status)) {
      void queryClient.invalidateQueries({ queryKey: importHistoryQueryKey });
    }
  }, [status, queryClient]);
}

/** The open import: its mapping and check while it waits, then its progress and outcome. */
function CurrentImport({ id }: { id: number }) {
  const query = useImport(id);
  const imported = query.data;
  const [checks, setChecks] = useState(0);
  const [dirty, setDirty] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useHistoryRefreshWhenDone(imported?.status);

  const open = imported?.status === 'uploaded' || imported?.status === 'checked';
  // Preparing (mapping, check) or following (progress, outcome); null while loading.
  const stage = imported ? (open ? 'preparing' : 'following') : null;
  // What had the focus (the upload form, a Resume button, the Import button) is gone: move it to the
  // heading of what replaced it.
  useEffect(() => {
    if (stage) heading.current?.focus();
  }, [stage]);

  if (query.isError) {
    return (
      <Alert color="red" variant="light" title="This import could not be opened">
        <Text size="sm">
          {query.error instanceof ApiError && query.error.status === 404
            ? 'It does not exist: start a new import.'
            : 'Please try again or contact your system administrator.'}
        </Text>
      </Alert>
    );
  }
  if (!imported) return <Loader aria-label="Loading the import" />;

  const status = IMPORT_STATUS_LABELS[imported.status];
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Group gap="sm" wrap="wrap">
          <Title order={2} size="h3" ref={heading} tabIndex={-1} style={{ wordBreak: 'break-word' }}>
            {imported.fileName}
          </Title>
          <Badge color={status.color} variant="dot" style={{ overflow: 'visible' }}>
            {status.label}
          </Badge>
        </Group>
        <Text size="sm">
          {IMPORT_KIND_LABELS[imported.kind]}, {countText(imported.rowCount, 'row')}, uploaded by{' '}
          {imported.createdBy} on {formatFrenchDateTime(imported.createdAt)}.
        </Text>
      </Stack>
      {open ? (
        <>
          <ImportMappingForm
            imported={imported}
            onChecked={() => setChecks((count) => count + 1)}
            onDirtyChange={setDirty}
          />
          {imported.status === 'checked' ? (
            <ImportDryRun key={`${imported.id}-${checks}`} imported={imported} stale={dirty} />
          ) : null}
        </>
      ) : (
        <ImportProgress imported={imported} />
      )}
    </Stack>
  );
}

/**
 * The Imports screen (not in the spec), Administrators only: upload a CSV or XLSX file of subscribers,
 * donations, sales or products,
 * map its columns, check it without writing, import it in the background and watch its progress; below,
 * the past imports, which can be resumed or undone. The open import is in the address (`?id=`), so a
 * reload keeps it.
 */
export function ImportsScreen() {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const id = importIdOf(searchParams.get('id'));
  const openImport = (next: number | null) => {
    void navigate(next === null ? paths.imports.href() : paths.imports.href(next));
  };

  return (
    <>
      <PageHeader
        title="Imports"
        actions={
          id === null ? null : (
            <Button
              variant="default"
              leftSection={<IconPlus size={16} aria-hidden />}
              onClick={() => openImport(null)}
            >
              New import
            </Button>
          )
        }
      />
      <Stack gap="xl">
        <div>
          {id === null ? (
            <Stack gap="md">
              <Title order={2} size="h3">
                New import
              </Title>
              <ImportUploadForm onStarted={(started) => openImport(started.id)} />
            </Stack>
          ) : (
            <CurrentImport key={id} id={id} />
          )}
        </div>
        <section aria-labelledby="import-history">
          <Title order={2} size="h3" id="import-history" mb="md">
            History
          </Title>
          <ImportHistory currentId={id} onOpen={openImport} />
        </section>
      </Stack>
    </>
  );
}
