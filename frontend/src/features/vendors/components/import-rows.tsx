import { useMemo, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SERVICE_TYPE_OPTIONS } from '@/lib/domain/service-types';
import type { VendorImportResult, VendorImportRow, VendorLimit } from '@/types/api';

/** Rows drawn at a time: a list of 10,000 rows shows its first 100, then 100 more on asking. */
export const ROWS_SHOWN = 100;

const number = (n: number) => n.toLocaleString('en-US');
const rowsNoun = (n: number) => `${number(n)} ${n === 1 ? 'row' : 'rows'}`;

const tone = { create: 'green', duplicate: 'yellow', error: 'red' } as const;
export const IMPORT_STATUS_TEXT = { create: 'Will be created', duplicate: 'Duplicate', error: 'Error' } as const;

/** A row refused only because the plan has no room left: valid otherwise. */
const onlyPastLimit = (row: VendorImportRow, limit: VendorLimit) =>
  row.status === 'error' && row.errors.length === 1 && row.errors[0] === limit.message;

/** A row whose problem is its service type (unknown, missing, or a formula). */
const serviceTypeProblem = (row: VendorImportRow) => row.errors.some((error) => /^Service type\b/.test(error));

/** The plan's room, in words, before anything is imported. */
export function limitSentence({ allowed, existing, room }: VendorLimit): string {
  const more = room === 0 ? 'no more can be added' : `${number(room)} more can be added`;
  return `Your plan allows ${number(allowed)} vendors and you have ${number(existing)}: ${more}.`;
}

/** The plan's room, and a note when the file has more good rows than fit. */
export function ImportLimit({ result }: { result: VendorImportResult }) {
  const limit = result.vendorLimit;
  const valid = result.wouldCreate + result.rows.filter((row) => onlyPastLimit(row, limit)).length;
  const over = valid > limit.room;
  return (
    <div
      data-testid="import-limit"
      className={over ? 'rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900' : 'text-sm text-slate-700'}
    >
      <p>{limitSentence(limit)}</p>
      {over ? (
        <p className="mt-1">
          {rowsNoun(valid)} could be imported, but only {number(limit.room)} {limit.room === 1 ? 'fits' : 'fit'}:{' '}
          {rowsNoun(valid - limit.room)} past the limit will not be imported. {limit.message}
        </p>
      ) : null}
    </div>
  );
}

/** The rows with problems first (in file order), then the others. */
function problemsFirst(rows: readonly VendorImportRow[]): VendorImportRow[] {
  return [...rows.filter((row) => row.status !== 'create'), ...rows.filter((row) => row.status === 'create')];
}

/** Every row of the preview with its status and all its problems; long files a hundred rows at a time. */
export function ImportRows({ result }: { result: VendorImportResult }) {
  const [limit, setLimit] = useState(ROWS_SHOWN);
  const ordered = useMemo(() => problemsFirst(result.rows), [result.rows]);
  const problems = result.rows.length - result.wouldCreate;
  const serviceTypes = useMemo(() => result.rows.some(serviceTypeProblem), [result.rows]);
  const shown = ordered.slice(0, limit);
  const total = result.rows.length;
  return (
    <div className="space-y-2">
      <p className="text-sm text-slate-700">
        <span>
          {number(result.wouldCreate)} of {rowsNoun(total)} will be created.
        </span>{' '}
        {problems > 0 ? <span>{rowsNoun(problems)} with problems, listed first.</span> : null}
      </p>
      {serviceTypes ? (
        <p className="rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
          <span className="font-medium text-slate-900">Service types:</span>{' '}
          {SERVICE_TYPE_OPTIONS.map((option) => option.label).join(', ')}. A row may name one by these words or choose a default
          above.
        </p>
      ) : null}
      {/* Focusable, so a keyboard can scroll a long preview. */}
      <div
        role="region"
        aria-label="Import preview"
        tabIndex={0}
        className="max-h-96 overflow-auto rounded-lg border border-slate-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
      >
        <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="Import preview">
          <thead className="sticky top-0 bg-slate-50 text-left text-xs font-semibold text-slate-600 uppercase">
            <tr>
              <th scope="col" className="px-3 py-2">
                Line
              </th>
              <th scope="col" className="px-3 py-2">
                Vendor
              </th>
              <th scope="col" className="px-3 py-2">
                Result
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {shown.map((row) => (
              <tr key={row.line} data-status={row.status}>
                <td className="px-3 py-2 align-top text-slate-500">{row.line}</td>
                <td className="px-3 py-2 align-top">
                  <span className="block font-medium break-words text-slate-900">{row.name || '—'}</span>
                  <span className="block text-xs break-all text-slate-500">{row.email || '—'}</span>
                </td>
                <td className="px-3 py-2 align-top">
                  <Badge color={tone[row.status]}>{IMPORT_STATUS_TEXT[row.status]}</Badge>
                  {row.errors.length > 0 ? (
                    <ul className="mt-1 list-disc space-y-0.5 pl-4 text-slate-700">
                      {row.errors.map((error, index) => (
                        <li key={index}>{error}</li>
                      ))}
                    </ul>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {total > shown.length ? (
        <div className="flex flex-col gap-2 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between">
          <p>
            Showing {number(shown.length)} of {rowsNoun(total)}
            {problems > 0 ? `; ${number(problems)} with problems` : ''}.
          </p>
          <Button variant="outline" size="sm" onClick={() => setLimit((n) => n + ROWS_SHOWN)}>
            Show {number(Math.min(ROWS_SHOWN, total - shown.length))} more
          </Button>
        </div>
      ) : null}
    </div>
  );
}
