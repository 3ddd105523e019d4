import { ArrowPathIcon } from '@heroicons/react/20/solid';
import { TrashIcon } from '@heroicons/react/24/outline';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Field, Input } from '@/components/ui/field';
import { AddLinePicker } from '@/components/compliance/add-line-picker';
import { toast } from '@/components/ui/toast';
import { errorMessage, isApiError, type FieldErrors } from '@/lib/api-error';
import { formatDollars, limitLabel, LINE_LABELS, LINE_LIMITS } from '@/lib/domain/coverage';
import type { CoverageInput, CoverageLine, CoverageLineKey, VendorDocument } from '@/types/api';
import { useSaveCoverage } from '../api/save-coverage';

type LineDraft = {
  line: CoverageLineKey;
  insurer: string;
  naic: string;
  policyNumber: string;
  effectiveDate: string;
  expirationDate: string;
  limits: Record<string, string>;
  additionalInsured: boolean;
  waiverOfSubrogation: boolean;
};

type Draft = { insured: string; producer: string; certificateHolder: string; lines: LineDraft[] };

function emptyLine(line: CoverageLineKey): LineDraft {
  return {
    line,
    insurer: '',
    naic: '',
    policyNumber: '',
    effectiveDate: '',
    expirationDate: '',
    limits: {},
    additionalInsured: false,
    waiverOfSubrogation: false,
  };
}

function lineDraft(line: CoverageLine): LineDraft {
  const limits: Record<string, string> = {};
  for (const [key, amount] of Object.entries(line.limits)) limits[key] = formatDollars(amount);
  return {
    line: line.line,
    insurer: line.insurer ?? '',
    naic: line.naic ?? '',
    policyNumber: line.policyNumber ?? '',
    effectiveDate: line.effectiveDate ?? '',
    expirationDate: line.expirationDate ?? '',
    limits,
    additionalInsured: line.additionalInsured,
    waiverOfSubrogation: line.waiverOfSubrogation,
  };
}

function draftOf(doc: VendorDocument): Draft {
  const coverage = doc.coverage;
  return {
    insured: coverage?.insured ?? doc.vendor ?? '',
    producer: coverage?.producer ?? '',
    certificateHolder: coverage?.certificateHolder ?? '',
    lines: coverage?.lines.map(lineDraft) ?? [],
  };
}

const orNull = (value: string) => (value.trim() ? value.trim() : null);

/** The body the server reads: blanks as null, limits left blank omitted, the others as typed. */
function toInput(draft: Draft): CoverageInput {
  return {
    insured: orNull(draft.insured),
    producer: orNull(draft.producer),
    certificateHolder: orNull(draft.certificateHolder),
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

/** How to type amounts, said beside the form wherever it is. */
export const AMOUNTS_HINT = 'Type amounts the way the certificate writes them: $1,000,000, $1M, 500K.';

type CoverageFormProps = {
  document: VendorDocument;
  /** Shows the coverage without a way to change it (a viewer): inputs disabled, no buttons. */
  readOnly?: boolean;
  /** After a save; the form then shows what the server stored. */
  onSaved?: (saved: VendorDocument) => void;
  /** A Cancel button, when the form can be left (a dialog). */
  onCancel?: () => void;
};

/**
 * What a certificate of insurance shows, laid out like an ACORD 25: who is insured, the producer
 * and the certificate holder, then each line with its insurer, policy, dates and limits. The
 * vendor page's Coverage dialog and the document's own page share it.
 */
export function CoverageForm({ document, readOnly = false, onSaved, onCancel }: CoverageFormProps) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(document));
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSaveCoverage();
  const error = (field: string) => errors[field]?.[0];

  function updateLine(index: number, change: Partial<LineDraft>) {
    setDraft({ ...draft, lines: draft.lines.map((line, i) => (i === index ? { ...line, ...change } : line)) });
  }

  function addLine(line: CoverageLineKey) {
    setDraft({ ...draft, lines: [...draft.lines, emptyLine(line)] });
    setErrors({});
  }

  function removeLine(index: number) {
    setDraft({ ...draft, lines: draft.lines.filter((_, i) => i !== index) });
    setErrors({});
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setErrors({});
    save.mutate(
      { id: document.id, input: toInput(draft) },
      {
        onSuccess: (saved) => {
          toast({ title: 'Coverage saved', description: `The coverage of ${document.fileName} is saved.`, variant: 'success' });
          setDraft(draftOf(saved));
          onSaved?.(saved);
        },
        onError: (failure) => {
          if (isApiError(failure)) setErrors(failure.errors);
          toast({
            title: 'Could not save the coverage',
            description: errorMessage(failure, 'Failed to save the coverage'),
            variant: 'error',
          });
        },
      },
    );
  }

  const text = (field: 'insured' | 'producer' | 'certificateHolder') => ({
    name: field,
    value: draft[field],
    invalid: Boolean(error(field)),
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [field]: event.target.value }),
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Certificate coverage" className="@container">
      {/*
        Laid out by the form's own width (container queries), not the screen's: it fills a wide
        dialog or half of the document's page. A disabled fieldset disables every input inside:
        a viewer reads the coverage, unchanged.
      */}
      <fieldset disabled={readOnly} className="min-w-0 space-y-5">
        {error('documentType') ? (
          <p role="alert" className="text-sm text-red-600">
            {error('documentType')}
          </p>
        ) : null}
        <div className="grid gap-4 @md:grid-cols-2">
          <Field label="Insured" error={error('insured')}>
            <Input {...text('insured')} autoComplete="off" />
          </Field>
          <Field label="Producer" error={error('producer')}>
            <Input {...text('producer')} autoComplete="off" />
          </Field>
          <Field label="Certificate holder" error={error('certificateHolder')} className="@md:col-span-2">
            <Input {...text('certificateHolder')} autoComplete="off" />
          </Field>
        </div>
        {draft.lines.length === 0 ? (
          <p className="text-sm text-slate-500">
            {readOnly ? 'No lines entered.' : 'No lines yet: add each line the certificate shows.'}
          </p>
        ) : null}
        {draft.lines.map((line, index) => {
          const at = (field: string) => error(`lines[${index}].${field}`);
          const lineText = (field: 'insurer' | 'naic' | 'policyNumber' | 'effectiveDate' | 'expirationDate') => ({
            value: line[field],
            invalid: Boolean(at(field)),
            onChange: (event: { target: { value: string } }) => updateLine(index, { [field]: event.target.value }),
          });
          return (
            <fieldset key={line.line} className="relative rounded-xl border border-slate-200 p-4">
              <legend className="float-left w-full pr-24 text-sm font-semibold text-slate-900">{LINE_LABELS[line.line]}</legend>
              {readOnly ? null : (
                <Button
                  variant="ghost"
                  size="sm"
                  className="absolute top-3 right-3"
                  onClick={() => removeLine(index)}
                  aria-label={`Remove ${LINE_LABELS[line.line]}`}
                >
                  <TrashIcon aria-hidden className="size-4" />
                  <span className="hidden @md:inline">Remove</span>
                </Button>
              )}
              <div className="clear-both" />
              {at('line') ? (
                <p role="alert" className="mt-1 text-sm text-red-600">
                  {at('line')}
                </p>
              ) : null}
              <div className="mt-3 grid gap-3 @md:grid-cols-2 @2xl:grid-cols-3">
                <Field label="Insurer" error={at('insurer')} className="@md:col-span-2">
                  <Input {...lineText('insurer')} autoComplete="off" />
                </Field>
                <Field label="NAIC" error={at('naic')}>
                  <Input {...lineText('naic')} autoComplete="off" inputMode="numeric" />
                </Field>
                <Field label="Policy number" error={at('policyNumber')}>
                  <Input {...lineText('policyNumber')} autoComplete="off" />
                </Field>
                <Field label="Effective date" error={at('effectiveDate')}>
                  <Input type="date" {...lineText('effectiveDate')} />
                </Field>
                <Field label="Expiration date" error={at('expirationDate')}>
                  <Input type="date" {...lineText('expirationDate')} />
                </Field>
              </div>
              <div className="mt-3 grid gap-3 @md:grid-cols-2">
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
                        onChange={(event) => updateLine(index, { limits: { ...line.limits, [key]: event.target.value } })}
                      />
                    </Field>
                  );
                })}
              </div>
              <div className="mt-3 flex flex-col gap-2 @md:flex-row @md:gap-6">
                <label className="flex items-center gap-2 text-sm text-slate-700">
                  <Checkbox
                    checked={line.additionalInsured}
                    onChange={(event) => updateLine(index, { additionalInsured: event.target.checked })}
                  />
                  Additional insured
                </label>
                <label className="flex items-center gap-2 text-sm text-slate-700">
                  <Checkbox
                    checked={line.waiverOfSubrogation}
                    onChange={(event) => updateLine(index, { waiverOfSubrogation: event.target.checked })}
                  />
                  Waiver of subrogation
                </label>
              </div>
            </fieldset>
          );
        })}
        {readOnly ? null : (
          <>
            <AddLinePicker taken={draft.lines.map((l) => l.line)} onAdd={addLine} />
            <div className="flex flex-col-reverse gap-2 @md:flex-row @md:justify-end">
              {onCancel ? (
                <Button variant="outline" onClick={onCancel} disabled={save.isPending}>
                  Cancel
                </Button>
              ) : null}
              <Button type="submit" disabled={save.isPending} aria-busy={save.isPending || undefined}>
                {save.isPending ? <ArrowPathIcon aria-hidden className="size-4 animate-spin" /> : null}
                {save.isPending ? 'Saving...' : 'Save coverage'}
              </Button>
            </div>
          </>
        )}
      </fieldset>
    </form>
  );
}
