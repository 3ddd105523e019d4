import { HttpResponse } from 'msw';
import type { ErrorEnvelope } from '@/types/api';

/** The server's error envelope; its type makes every handler's refusal one the document allows. */
export function apiError(status: number, error: string, message: string, errors?: Record<string, string[]>) {
  // MSW infers a body's type from where it is returned only: outside a handler, name it.
  return HttpResponse.json<ErrorEnvelope>(errors ? { error, message, errors } : { error, message }, { status });
}

export const unauthorized = () => apiError(401, 'unauthorized', 'You need to sign in to continue.');

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** An export's Excel workbook: a ZIP's first bytes, enough for the screens, which only save it. */
export function xlsxFile(fileName: string) {
  return new HttpResponse<string>('PK\u0003\u0004 workbook', {
    headers: { 'Content-Type': XLSX_CONTENT_TYPE, 'Content-Disposition': `attachment; filename="${fileName}"` },
  });
}
