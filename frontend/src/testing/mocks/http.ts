import { createOpenApiHttp } from 'openapi-msw';
import type { paths } from '@/types/openapi';

/**
 * MSW's `http`, typed by the server's OpenAPI document (`src/types/openapi.d.ts`): a handler's
 * path must be one the server has (written as the document writes it, `/api/vendors/{id}`), and
 * its parameters, request body and answers take the document's types, so `npm run typecheck`
 * fails on a mock that answers what the server cannot. `*` matches any origin, as MSW's `*\/api`.
 * Paths outside the API (a test of the client itself) use `http.untyped`.
 */
export const http = createOpenApiHttp<paths>({ baseUrl: '*' });
