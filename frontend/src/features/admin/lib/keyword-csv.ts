// papaparse rather than a split on commas: keyword files come from spreadsheets and SEO tools,
// whose quoted fields hold commas, quotes and line breaks ("vendor w-9, 2025"); it also copes
// with CRLF line ends and a byte-order mark, and is small, typed and widely used.
import Papa from 'papaparse';
import { fileExtension } from '@/lib/domain/documents';
import type { KeywordRow } from '@/types/api';

/** A keyword file is chosen by its name: browsers and systems disagree on a CSV's MIME type. */
export function isCsvFile(file: File): boolean {
  return fileExtension(file.name) === 'csv';
}

export class KeywordCsvError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeywordCsvError';
  }
}

/** One parsed row and the row of the file it came from (1 is the header). */
export type ParsedKeywordRow = { line: number; row: KeywordRow };

/** The rows to send, and how many rows had no keyword. */
export type ParsedKeywordCsv = { rows: ParsedKeywordRow[]; skipped: number };

/**
 * Reads a keyword CSV (docs/product.md, "Screens"): the first line (the header) is skipped; the columns
 * are, in order, keyword, search volume, difficulty, priority, category; rows without a keyword
 * are dropped. The values are sent as written: the server checks them.
 *
 * @throws KeywordCsvError when the text is not readable as CSV (an unclosed quote).
 */
export function parseKeywordCsv(text: string): ParsedKeywordCsv {
  // Parsing the header as a row (header: false): the columns go by position, whatever their titles.
  const result = Papa.parse<string[]>(text, { header: false, skipEmptyLines: false });
  // A one-column file has no delimiter to detect; that is no failure.
  const failure = result.errors.find((error) => error.type !== 'Delimiter');
  if (failure) throw new KeywordCsvError(`Line ${failure.row === undefined ? '?' : failure.row + 1}: ${failure.message}`);
  const rows: ParsedKeywordRow[] = [];
  let skipped = 0;
  result.data.forEach((fields, index) => {
    if (index === 0) return;
    const cell = (column: number) => (fields[column] ?? '').trim();
    const keyword = cell(0);
    if (!keyword) {
      // A blank line (the file's last, often) is no row.
      if (fields.some((field) => field.trim())) skipped += 1;
      return;
    }
    rows.push({
      line: index + 1,
      row: { keyword, searchVolume: cell(1), difficulty: cell(2), priority: cell(3), category: cell(4) },
    });
  });
  return { rows, skipped };
}

/** Splits rows into chunks of `size`, in order. */
export function chunk<T>(rows: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < rows.length; start += size) chunks.push(rows.slice(start, start + size));
  return chunks;
}
