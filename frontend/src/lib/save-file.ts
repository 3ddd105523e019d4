/** Hands a blob to the browser as a download under the given name. */
export function saveFile(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.rel = 'noopener';
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    // Give the browser a moment to start reading the blob before it goes.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/** Today's date as YYYY-MM-DD in the user's calendar (the default names of exports). */
export function todayStamp(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The same as `saveFile` (the name the reports use). */
export const saveBlob = saveFile;

/** The two files an export gives: CSV (the default) or an Excel workbook. */
export type ExportFormat = 'csv' | 'xlsx';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** An export's Accept header: the file's type, or the JSON of a refusal. */
export function exportAccept(format: ExportFormat): string {
  return `${format === 'xlsx' ? XLSX_CONTENT_TYPE : 'text/csv'}, application/json`;
}
