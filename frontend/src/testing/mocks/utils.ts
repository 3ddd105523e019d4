import { HttpResponse } from 'msw';

export function apiError(status: number, error: string, message: string, errors?: Record<string, string[]>) {
  return HttpResponse.json(errors ? { error, message, errors } : { error, message }, { status });
}

export const unauthorized = () => apiError(401, 'unauthorized', 'You need to sign in to continue.');
