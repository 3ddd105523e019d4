import { SparklesIcon } from '@heroicons/react/20/solid';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { ERROR_CODES, errorMessage, type ApiError } from '@/lib/api-error';
import type { Extraction } from '@/types/api';
import { isReading, useStartExtraction } from '../api/extraction';

/** The sentence shown instead of anything AI when the server has no AI key. */
export const AI_OFF = 'AI reading is off on this server. Enter the coverage by hand.';

/** A refusal of POST /extract as a toast's title: the allowance used, AI off, or another failure. */
function refusalTitle(error: ApiError): string {
  if (error.code === ERROR_CODES.planLimit) return 'AI reading allowance used';
  if (error.code === ERROR_CODES.aiNotConfigured) return 'AI reading is off';
  return 'Could not read the certificate';
}

type AiReadingProps = {
  documentId: string;
  reading: UseQueryResult<Extraction | null, ApiError>;
  /** Whether the person may ask for a reading (members and above). */
  canWrite: boolean;
  /** Called once a reading is asked for, so its end is told. */
  onStarted: () => void;
};

/**
 * Where the AI reading of a certificate is: never read, under way (a spinner, read again every
 * 2 s), failed or unavailable with the reason, with "Read with AI" for who may write. A reading
 * that is done shows in the coverage form itself, beside each field.
 */
export function AiReading({ documentId, reading, canWrite, onStarted }: AiReadingProps) {
  const start = useStartExtraction(documentId);

  function read() {
    start.mutate(undefined, {
      onSuccess: () => {
        onStarted();
        toast({
          title: 'Reading the certificate',
          description: 'What AI reads shows beside the form in a moment.',
          variant: 'success',
        });
      },
      onError: (failure) =>
        toast({
          title: refusalTitle(failure),
          description: errorMessage(failure, 'The certificate could not be read with AI.'),
          variant: 'error',
        }),
    });
  }

  if (reading.isPending) return null;
  if (reading.isError) {
    return (
      <Box>
        <p className="min-w-0 flex-1">{`The AI reading could not be loaded: ${reading.error.message}`}</p>
        <Button variant="outline" size="sm" onClick={() => void reading.refetch()}>
          Try again
        </Button>
      </Box>
    );
  }
  const data = reading.data;
  if (data && isReading(data.status)) {
    return (
      <Box>
        <p role="status" className="flex min-w-0 flex-1 items-center gap-2">
          <Spinner className="size-4" label="Reading" />
          Reading the certificate…
        </p>
      </Box>
    );
  }
  if (data?.status === 'done') {
    // The form shows what was read to who may write; a viewer is told who takes it.
    return canWrite ? null : (
      <Box>
        <p className="min-w-0 flex-1">Read by AI. Members and admins accept what was read into the coverage.</p>
      </Box>
    );
  }

  let sentence = 'Not read with AI yet.';
  if (data?.status === 'failed') sentence = `The AI reading failed: ${data.reason ?? 'no reason was given.'}`;
  else if (data?.status === 'unavailable') sentence = data.reason ?? 'This certificate cannot be read with AI.';
  return (
    <Box>
      <p className="min-w-0 flex-1">{sentence}</p>
      {canWrite ? (
        <Button variant="outline" size="sm" onClick={read} disabled={start.isPending} aria-busy={start.isPending || undefined}>
          {data?.status === 'failed' ? 'Read again' : 'Read with AI'}
        </Button>
      ) : null}
    </Box>
  );
}

/** The AI part's frame, above the form. */
function Box({ children }: { children: ReactNode }) {
  return (
    <div
      data-testid="ai-reading"
      className="flex flex-col gap-3 rounded-lg border border-violet-200 bg-violet-50/50 p-3 text-sm text-slate-700 sm:flex-row sm:items-center"
    >
      <SparklesIcon aria-hidden className="hidden size-5 shrink-0 text-violet-600 sm:block" />
      {children}
    </div>
  );
}
