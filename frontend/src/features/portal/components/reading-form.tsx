import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Field, Input } from '@/components/ui/field';
import { toast } from '@/components/ui/toast';
import { ERROR_CODES, errorMessage, type FieldErrors } from '@/lib/api-error';
import { formatDollars, limitLabel, LINE_LABELS, LINE_LIMITS } from '@/lib/domain/coverage';
import type { CoverageInput, CoverageLine } from '@/types/api';
import type { Extraction } from '@/types/api';
import { useCorrectPortalReading } from '../api/portal-reading';

type Coverage = NonNullable<Extraction['suggestion']>;

type LineDraft = Omit<CoverageLine, 'limits'> & { limits: Record<string, string> };
type Draft = Omit<Coverage, 'lines'> & { lines: LineDraft[] };

/** The suggestion as the form shows it: limits as dollars ('$1,000,000'), the rest as read. */
export function draftOf(coverage: Coverage): Draft {
  return {
    ...coverage,
    lines: coverage.lines.map((line) => ({
      ...line,
      limits: Object.fromEntries(Object.entries(line.limits).map(([key, amount]) => [key, formatDollars(amount)])),
    })),
  };
}

const orNull = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);

/**
 * The body of the PUT: the whole coverage (what the form does not show, the producer, the
 * certificate's date, each insurer and NAIC, goes back as read), blanks as null, limits as typed
 * and those left blank omitted.
 */
export function toInput(draft: Draft): CoverageInput {
  return {
    insured: orNull(draft.insured),
    producer: orNull(draft.producer),
    certificateHolder: orNull(draft.certificateHolder),
    certificateDate: draft.certificateDate || null,
    lines: draft.lines.map((line) => ({
      line: line.line,
      insurer: orNull(line.insurer),
      naic: orNull(line.naic),
      policyNumber: orNull(line.policyNumber),
      effectiveDate: line.effectiveDate || null,
      expirationDate: line.expirationDate || null,
      limits: Object.fromEntries(
        Object.entries(line.limits)
          .map(([key, value]) => [key, value.trim()] as const)
          .filter(([, value]) => value !== ''),
      ),
      additionalInsured: line.additionalInsured,
      waiverOfSubrogation: line.waiverOfSubrogation,
    })),
  };
}

/** The paths the form has a field for: a 422 on any other path is listed above the form. */
function shownPaths(draft: Draft): Set<string> {
  const paths = new Set(['insured', 'certificateHolder']);
  draft.lines.forEach((line, index) => {
    for (const field of ['policyNumber', 'effectiveDate', 'expirationDate']) paths.add(`lines[${index}].${field}`);
    for (const { key } of LINE_LIMITS[line.line]) paths.add(`lines[${index}].limits.${key}`);
  });
  return paths;
}

type ReadingFormProps = {
  token: string;
  coverage: Coverage;
  /** After the corrections were sent, or "Looks right". */
  onFinished: (how: 'sent' | 'unchanged') => void;
};

/** What was read, as fields the vendor corrects: who is insured, the holder, each line's policy, dates and limits. */
export function ReadingForm({ token, coverage, onFinished }: ReadingFormProps) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(coverage));
  const [errors, setErrors] = useState<FieldErrors>({});
  const correct = useCorrectPortalReading(token);
  const formRef = useRef<HTMLFormElement>(null);
  const error = (path: string) => errors[path]?.[0];
  const pending = correct.isPending;

  // After a 422, the first field it names has the focus (its message is read with it).
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-reading-errors]')?.focus();
  }, [errors]);

  function updateLine(index: number, change: Partial<LineDraft>) {
    setDraft((prev) => ({ ...prev, lines: prev.lines.map((line, i) => (i === index ? { ...line, ...change } : line)) }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setErrors({});
    correct.mutate(toInput(draft), {
      onSuccess: () => {
        toast({ title: 'Thanks, your corrections were sent', variant: 'success' });
        onFinished('sent');
      },
      onError: (failure) => {
        if (failure.code === ERROR_CODES.validationFailed && Object.keys(failure.errors).length > 0) {
          setErrors(failure.errors);
          return;
        }
        toast({
          title: 'Could not send the corrections',
          description: errorMessage(failure, 'Failed to send the corrections'),
          variant: 'error',
        });
      },
    });
  }

  const shown = shownPaths(draft);
  const elsewhere = Object.entries(errors)
    .filter(([path, messages]) => !shown.has(path) && messages.length > 0)
    .map(([path, messages]) => `${path}: ${messages[0]}`);

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label="Correct what we read" className="space-y-4">
      <p className="text-sm text-slate-600">
        Check what we read and correct anything that differs from your certificate. Type amounts as the certificate writes them:
        $1,000,000, $1M, 500K.
      </p>
      {elsewhere.length > 0 ? (
        <div role="alert" tabIndex={-1} data-reading-errors className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          <ul className="list-disc space-y-1 pl-5">
            {elsewhere.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <fieldset disabled={pending} className="min-w-0 space-y-4">
        <Field label="Insured" error={error('insured')}>
          <Input
            autoComplete="off"
            value={draft.insured ?? ''}
            invalid={Boolean(error('insured'))}
            onChange={(e) => setDraft({ ...draft, insured: e.target.value })}
          />
        </Field>
        <Field label="Certificate holder" error={error('certificateHolder')}>
          <Input
            autoComplete="off"
            value={draft.certificateHolder ?? ''}
            invalid={Boolean(error('certificateHolder'))}
            onChange={(e) => setDraft({ ...draft, certificateHolder: e.target.value })}
          />
        </Field>
        {draft.lines.length === 0 ? <p className="text-sm text-slate-500">No lines of insurance were read.</p> : null}
        {draft.lines.map((line, index) => {
          const at = (field: string) => error(`lines[${index}].${field}`);
          const text = (field: 'policyNumber' | 'effectiveDate' | 'expirationDate') => ({
            value: line[field] ?? '',
            invalid: Boolean(at(field)),
            onChange: (e: { target: { value: string } }) => updateLine(index, { [field]: e.target.value }),
          });
          return (
            <fieldset key={line.line} className="min-w-0 rounded-xl border border-slate-200 bg-white p-4">
              <legend className="px-1 text-sm font-semibold text-slate-900">{LINE_LABELS[line.line]}</legend>
              <div className="grid gap-3 sm:grid-cols-2">
                <Field label="Policy number" error={at('policyNumber')} className="sm:col-span-2">
                  <Input autoComplete="off" {...text('policyNumber')} />
                </Field>
                <Field label="Effective date" error={at('effectiveDate')}>
                  <Input type="date" {...text('effectiveDate')} />
                </Field>
                <Field label="Expiration date" error={at('expirationDate')}>
                  <Input type="date" {...text('expirationDate')} />
                </Field>
                {LINE_LIMITS[line.line].map(({ key }) => {
                  const message = at(`limits.${key}`);
                  return (
                    <Field key={key} label={limitLabel(line.line, key)} error={message}>
                      <Input
                        inputMode="decimal"
                        autoComplete="off"
                        placeholder="Not shown"
                        value={line.limits[key] ?? ''}
                        invalid={Boolean(message)}
                        onChange={(e) => updateLine(index, { limits: { ...line.limits, [key]: e.target.value } })}
                      />
                    </Field>
                  );
                })}
              </div>
              <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:gap-6">
                <label className="flex items-center gap-2 text-sm text-slate-700">
                  <Checkbox
                    checked={line.additionalInsured}
                    onChange={(e) => updateLine(index, { additionalInsured: e.target.checked })}
                  />
                  Additional insured
                </label>
                <label className="flex items-center gap-2 text-sm text-slate-700">
                  <Checkbox
                    checked={line.waiverOfSubrogation}
                    onChange={(e) => updateLine(index, { waiverOfSubrogation: e.target.checked })}
                  />
                  Waiver of subrogation
                </label>
              </div>
            </fieldset>
          );
        })}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => onFinished('unchanged')}>
            Looks right
          </Button>
          <Button type="submit" aria-busy={pending || undefined}>
            {pending ? 'Sending...' : 'Send corrections'}
          </Button>
        </div>
      </fieldset>
    </form>
  );
}
