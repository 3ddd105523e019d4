import { CheckCircleIcon, ExclamationTriangleIcon } from '@heroicons/react/20/solid';
import { useEffect, useId, useRef, useState } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { isReading, usePortalReading } from '../api/portal-reading';
import { ReadingForm } from './reading-form';

type PortalReadingProps = {
  token: string;
  /** Nothing is left for the vendor to do here: finished, sent, failed or gone. */
  onSettled: () => void;
};

/**
 * "What we read from your certificate", under the upload of a COI AI reads (docs/product.md,
 * "On the portal"): a spinner while it is read (asked again every 2 s), then the read facts to
 * correct, or why it could not be read.
 */
export function PortalReading({ token, onSettled }: PortalReadingProps) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const reading = usePortalReading(token);
  const [finished, setFinished] = useState<'sent' | 'unchanged' | null>(null);
  const status = reading.data?.status;
  const nothingToDo = reading.isError || status === 'failed' || status === 'unavailable' || finished !== null;

  useEffect(() => {
    if (nothingToDo) onSettled();
  }, [nothingToDo, onSettled]);

  // The button pressed goes with the form: the focus goes to the section's heading, then its thanks.
  useEffect(() => {
    if (finished) headingRef.current?.focus();
  }, [finished]);

  // Said to a screen reader as it changes; the form itself is not read out as it appears.
  const announcement = finished
    ? ''
    : reading.isPending || isReading(status)
      ? 'Reading your certificate…'
      : status === 'done'
        ? 'Your certificate was read: check what we read below.'
        : 'Your certificate could not be read.';

  let body;
  if (finished) {
    body = (
      <p className="flex items-start gap-2 text-sm text-emerald-800">
        <CheckCircleIcon aria-hidden className="mt-0.5 size-4 shrink-0 text-emerald-600" />
        {finished === 'sent' ? 'Your corrections were sent with your certificate.' : 'Thank you for checking.'}
      </p>
    );
  } else if (reading.isPending || isReading(status)) {
    body = (
      <p className="flex items-center gap-3 text-sm text-slate-700">
        <Spinner className="size-5" label="Reading your certificate…" />
        Reading your certificate…
      </p>
    );
  } else if (reading.isError) {
    body = <p className="text-sm text-slate-700">{errorMessage(reading.error, 'What was read cannot be shown.')}</p>;
  } else if (status === 'done' && reading.data?.suggestion) {
    body = <ReadingForm token={token} coverage={reading.data.suggestion} notes={reading.data.notes} onFinished={setFinished} />;
  } else {
    body = (
      <p className="flex items-start gap-2 text-sm text-slate-700" data-testid="portal-reading-reason">
        <ExclamationTriangleIcon aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-500" />
        {reading.data?.reason ?? 'Your certificate could not be read.'}
      </p>
    );
  }

  return (
    <section
      aria-labelledby={headingId}
      className="mt-5 rounded-xl border border-slate-200 bg-white p-4 sm:p-5"
      data-testid="portal-reading"
    >
      <h2
        id={headingId}
        ref={headingRef}
        tabIndex={-1}
        className="mb-3 text-base font-semibold text-slate-900 focus:outline-none"
      >
        What we read from your certificate
      </h2>
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      {body}
    </section>
  );
}
