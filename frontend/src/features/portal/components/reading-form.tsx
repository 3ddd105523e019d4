import { TrashIcon } from '@heroicons/react/24/outline';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { AddLinePicker } from '@/components/compliance/add-line-picker';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Field, Input } from '@/components/ui/field';
import { toast } from '@/components/ui/toast';
import { ERROR_CODES, errorMessage, type FieldErrors } from '@/lib/api-error';
import { formatDollars, limitLabel, LINE_LABELS, LINE_LIMITS } from '@/lib/domain/coverage';
import type { CoverageInput, CoverageLine, CoverageLineKey, Extraction } from '@/types/api';
import { useCorrectPortalReading } from '../api/portal-reading';

type Coverage = NonNullable<Extraction['suggestion']>;

/**
 * A line as the form holds it; `key` tells the lines apart while they are removed and added (a
 * certificate may show two policies of one line), and is not sent.
 */
type LineDraft = Omit<CoverageLine, 'limits'> & { key: string; limits: Record<string, string> };
type Draft = Omit<Coverage, 'lines'> & { lines: LineDraft[] };

/** The text fields of a line, as the signed-in coverage form labels them. */
type LineTextField = 'insurer' | 'naic' | 'policyNumber' | 'effectiveDate' | 'expirationDate';

/** The suggestion as the form shows it: limits as dollars ('$1,000,000'), the rest as read. */
export function draftOf(coverage: Coverage): Draft {
  return {
    ...coverage,
    lines: coverage.lines.map((line, index) => ({
      ...line,
      key: `read-${index}`,
      limits: Object.fromEntries(Object.entries(line.limits).map(([key, amount]) => [key, formatDollars(amount)])),
    })),
  };
}

/** A line the reader missed, added by the vendor: nothing filled in, neither box checked. */
function emptyLine(line: CoverageLineKey): LineDraft {
  return {
    key: `added-${line}`,
    line,
    insurer: null,
    naic: null,
    policyNumber: null,
    effectiveDate: null,
    expirationDate: null,
    limits: {},
    additionalInsured: false,
    waiverOfSubrogation: false,
  };
}

const orNull = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);

/**
 * The body of the PUT: the whole coverage as the form holds it (the lines removed left out, those
 * added in), blanks as null, limits as typed and those left blank omitted; a limit the form has
 * no field for goes back as read.
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
  const paths = new Set(['certificateDate', 'insured', 'producer', 'certificateHolder']);
  draft.lines.forEach((line, index) => {
    for (const field of ['insurer', 'naic', 'policyNumber', 'effectiveDate', 'expirationDate']) {
      paths.add(`lines[${index}].${field}`);
    }
    for (const { key } of LINE_LIMITS[line.line]) paths.add(`lines[${index}].limits.${key}`);
  });
  return paths;
}

type ReadingFormProps = {
  token: string;
  coverage: Coverage;
  /** What the reader answered that did not read, left out, in words: listed above the fields. */
  notes?: readonly string[];
  /** After the corrections were sent, or "Looks right". */
  onFinished: (how: 'sent' | 'unchanged') => void;
};

/**
 * What was read, as fields the vendor corrects, in the signed-in coverage form's order: the
 * certificate's date, who is insured, the producer and the holder, then each line with its insurer,
 * NAIC, policy, dates, limits and boxes. A line read by mistake is removed, one the reader missed
 * is added.
 */
export function ReadingForm({ token, coverage, notes = [], onFinished }: ReadingFormProps) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(coverage));
  const [errors, setErrors] = useState<FieldErrors>({});
  const correct = useCorrectPortalReading(token);
  const formRef = useRef<HTMLFormElement>(null);
  const error = (path: string) => errors[path]?.[0];
  const pending = correct.isPending;

  // Each line's legend and insurer ('legend:read-0', 'insurer:added-umbrella') and the "Add a
  // line" picker: where the focus goes once a line is removed or added (the button pressed is
  // gone or disabled by then).
  const elements = useRef(new Map<string, HTMLElement>());
  const pickerRef = useRef<HTMLDivElement>(null);
  const focusNext = useRef<(() => void) | null>(null);
  const element = (name: string) => (node: HTMLElement | null) => {
    if (node) elements.current.set(name, node);
    else elements.current.delete(name);
  };

  // After a 422, the first field it names has the focus (its message is read with it).
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-reading-errors]')?.focus();
  }, [errors]);

  // After a line is removed or added, once the form is drawn again.
  useEffect(() => {
    const focus = focusNext.current;
    focusNext.current = null;
    focus?.();
  });

  function updateLine(index: number, change: Partial<LineDraft>) {
    setDraft((prev) => ({ ...prev, lines: prev.lines.map((line, i) => (i === index ? { ...line, ...change } : line)) }));
  }

  /** The line goes; the focus goes to the line before it (or after it), else to "Add a line". */
  function removeLine(index: number) {
    const rest = draft.lines.filter((_, i) => i !== index);
    const neighbour = rest[index - 1] ?? rest[index];
    setDraft({ ...draft, lines: rest });
    // Errors of later lines would point at the wrong line once the indexes move.
    setErrors({});
    focusNext.current = () => {
      if (neighbour) elements.current.get(`legend:${neighbour.key}`)?.focus();
      else pickerRef.current?.querySelector('button')?.focus();
    };
  }

  /** A line the reader missed, empty, at the end; the focus goes to its first field. */
  function addLine(kind: CoverageLineKey) {
    const line = emptyLine(kind);
    setDraft({ ...draft, lines: [...draft.lines, line] });
    setErrors({});
    focusNext.current = () => elements.current.get(`insurer:${line.key}`)?.focus();
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

  const top = (field: 'certificateDate' | 'insured' | 'producer' | 'certificateHolder') => ({
    value: draft[field] ?? '',
    invalid: Boolean(error(field)),
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [field]: e.target.value }),
  });

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label="Correct what we read" className="space-y-4">
      <p className="text-sm text-slate-600">
        Check what we read and correct anything that differs from your certificate. Type amounts as the certificate writes them:
        $1,000,000, $1M, 500K.
      </p>
      {notes.length > 0 ? (
        <div className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2" data-testid="portal-reading-notes">
          <h3 className="text-sm font-medium text-slate-900">Left out by the reader</h3>
          <ul className="mt-1 list-disc space-y-1 pl-5 text-sm text-slate-700">
            {notes.map((note, index) => (
              <li key={`${index}-${note}`}>{note}</li>
            ))}
          </ul>
        </div>
      ) : null}
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
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Certificate date" error={error('certificateDate')}>
            <Input type="date" {...top('certificateDate')} />
          </Field>
          <Field label="Insured" error={error('insured')}>
            <Input autoComplete="off" {...top('insured')} />
          </Field>
          <Field label="Producer" error={error('producer')}>
            <Input autoComplete="off" {...top('producer')} />
          </Field>
          <Field label="Certificate holder" error={error('certificateHolder')}>
            <Input autoComplete="off" {...top('certificateHolder')} />
          </Field>
        </div>
        {draft.lines.length === 0 ? <p className="text-sm text-slate-500">No lines of insurance were read.</p> : null}
        {draft.lines.map((line, index) => {
          const at = (field: string) => error(`lines[${index}].${field}`);
          const text = (field: LineTextField) => ({
            value: line[field] ?? '',
            invalid: Boolean(at(field)),
            onChange: (e: { target: { value: string } }) => updateLine(index, { [field]: e.target.value }),
          });
          return (
            <fieldset key={line.key} className="relative min-w-0 rounded-xl border border-slate-200 bg-white p-4">
              <legend
                ref={element(`legend:${line.key}`)}
                tabIndex={-1}
                className="float-left w-full rounded pr-24 text-sm font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
              >
                {LINE_LABELS[line.line]}
              </legend>
              <Button
                variant="ghost"
                size="sm"
                className="absolute top-3 right-3"
                onClick={() => removeLine(index)}
                aria-label={`Remove ${LINE_LABELS[line.line]}`}
              >
                <TrashIcon aria-hidden className="size-4" />
                <span className="hidden sm:inline">Remove</span>
              </Button>
              <div className="clear-both" />
              <div className="mt-3 grid gap-3 sm:grid-cols-2">
                <Field label="Insurer" error={at('insurer')} className="sm:col-span-2">
                  <Input ref={element(`insurer:${line.key}`)} autoComplete="off" {...text('insurer')} />
                </Field>
                <Field label="NAIC" error={at('naic')}>
                  <Input autoComplete="off" inputMode="numeric" {...text('naic')} />
                </Field>
                <Field label="Policy number" error={at('policyNumber')}>
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
        <div ref={pickerRef}>
          <AddLinePicker taken={draft.lines.map((line) => line.line)} onAdd={addLine} />
        </div>
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
