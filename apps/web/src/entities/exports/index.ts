/** Exports of the search screens (contract `exports`): inline below EXPORT_INLINE_ROW_LIMIT rows, else written in
 * the background with a progress notification, Cancel, and the download once the file is ready; shared by the
 * subscribers' and the donations' Export menus. */
export type { SearchMatches } from './api/exports.ts';
export { exportFailureReason, exportInlineOrInBackground } from './background-export.tsx';
