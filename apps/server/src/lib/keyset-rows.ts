/**
 * Reads every row `fetchBatch` gives, batch after batch, each starting after the last row of the one
 * before (keyset paging: no OFFSET, so the last batch costs what the first does). The next batch is
 * asked for while the current one is being consumed, so the database and the writer work side by
 * side; at most two batches are in memory. `onBatch` hears the number of rows read so far as each batch
 * arrives (the progress of a large export). Yields each batch as an array (non-empty): a reader that
 * takes a batch at a time is spared an asynchronous step per row (a second per million rows).
 */
export async function* keysetBatches<Row, Cursor>(
  batchSize: number,
  fetchBatch: (cursor: Cursor | undefined) => Promise<Row[]>,
  cursorOf: (row: Row) => Cursor,
  onBatch?: (rowsRead: number) => void,
): AsyncGenerator<Row[]> {
  let pending = fetchBatch(undefined);
  let rowsRead = 0;
  for (;;) {
    const batch = await pending;
    rowsRead += batch.length;
    onBatch?.(rowsRead);
    const last = batch.at(-1);
    const more = last !== undefined && batch.length >= batchSize;
    if (last && more) {
      pending = fetchBatch(cursorOf(last));
      // Should the reader stop early, the batch asked for in advance must not fail unobserved.
      pending.catch(() => {});
    }
    if (batch.length > 0) yield batch;
    if (!more) return;
  }
}

/** {@link keysetBatches}, one row at a time. Used by the streamed exports. */
export async function* keysetRows<Row, Cursor>(
  batchSize: number,
  fetchBatch: (cursor: Cursor | undefined) => Promise<Row[]>,
  cursorOf: (row: Row) => Cursor,
  onBatch?: (rowsRead: number) => void,
): AsyncGenerator<Row> {
  for await (const batch of keysetBatches(batchSize, fetchBatch, cursorOf, onBatch)) yield* batch;
}
