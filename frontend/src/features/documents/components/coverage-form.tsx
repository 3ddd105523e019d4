import { ArrowPathIcon } from '@heroicons/react/20/solid';
import { TrashIcon } from '@heroicons/react/24/outline';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Field, Input } from '@/components/ui/field';
import { AddLinePicker } from '@/components/compliance/add-line-picker';
import { toast } from '@/components/ui/toast';
import { errorMessage, isApiError, type FieldErrors } from '@/lib/api-error';
import { formatDollars, limitLabel, LINE_LABELS, LINE_LIMITS } from '@/lib/domain/coverage';
import { formatDate } from '@/lib/format';
import type { CoverageInput, CoverageLine, CoverageLineKey, Extraction, VendorDocument } from '@/types/api';
import { useSaveCoverage } from '../api/save-coverage';
import { earliestExpiration, suggestedLines, type SuggestedLine } from '../lib/suggestion';
import { SuggestionRow } from './suggestion-row';

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

type Draft = { certificateDate: string; insured: string; producer: string; certificateHolder: string; lines: LineDraft[] };

/** The fields of the certificate itself, as the form and the reading name them. */
type TopField = 'certificateDate' | 'insured' | 'producer' | 'certificateHolder';
/** The text fields of a line. */
type LineTextField = 'insurer' | 'naic' | 'policyNumber' | 'effectiveDate' | 'expirationDate';
type LineFlag = 'additionalInsured' | 'waiverOfSubrogation';

const TOP_FIELDS: readonly TopField[] = ['certificateDate', 'insured', 'producer', 'certificateHolder'];
const LINE_TEXT_FIELDS: readonly LineTextField[] = ['insurer', 'naic', 'policyNumber', 'effectiveDate', 'expirationDate'];
const LINE_FLAGS: readonly LineFlag[] = ['additionalInsured', 'waiverOfSubrogation'];
const DATE_FIELDS: ReadonlySet<string> = new Set(['certificateDate', 'effectiveDate', 'expirationDate']);

const LABELS: Record<TopField | LineTextField | LineFlag, string> = {
  certificateDate: 'Certificate date',
  insured: 'Insured',
  producer: 'Producer',
  certificateHolder: 'Certificate holder',
  insurer: 'Insurer',
  naic: 'NAIC',
  policyNumber: 'Policy number',
  effectiveDate: 'Effective date',
  expirationDate: 'Expiration date',
  additionalInsured: 'Additional insured',
  waiverOfSubrogation: 'Waiver of subrogation',
};

/** A label inside a sentence: 'Policy number' as 'policy number' (NAIC stays NAIC). */
function inSentence(label: string): string {
  return /^[A-Z][a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;
}

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
    certificateDate: coverage?.certificateDate ?? '',
    insured: coverage?.insured ?? doc.vendor ?? '',
    producer: coverage?.producer ?? '',
    certificateHolder: coverage?.certificateHolder ?? '',
    lines: coverage?.lines.map(lineDraft) ?? [],
  };
}

const orNull = (value: string) => (value.trim() ? value.trim() : null);

/** Whether an amount as typed is the whole-dollar amount read ('1,000,000' and '$1,000,000' are 1000000). */
function sameAmount(typed: string | undefined, amount: number): boolean {
  const plain = (typed ?? '').trim();
  return /^\$?[\d,]+(\.0+)?$/.test(plain) && Number(plain.replace(/[$,]/g, '')) === amount;
}

/** The line of `kind` changed by `change`; added at the end when the form has none yet. */
function withLine(draft: Draft, kind: CoverageLineKey, change: (line: LineDraft) => Partial<LineDraft>): Draft {
  const lines = draft.lines.some((line) => line.line === kind) ? draft.lines : [...draft.lines, emptyLine(kind)];
  return { ...draft, lines: lines.map((line) => (line.line === kind ? { ...line, ...change(line) } : line)) };
}

/** Every value a line read holds, over what the form's line has (its other limits stay). */
function acceptedLine(read: CoverageLine): (line: LineDraft) => Partial<LineDraft> {
  return (line) => {
    const change: Partial<LineDraft> = {
      additionalInsured: read.additionalInsured,
      waiverOfSubrogation: read.waiverOfSubrogation,
      limits: { ...line.limits },
    };
    for (const field of LINE_TEXT_FIELDS) {
      const value = read[field];
      if (value) change[field] = value;
    }
    for (const [key, amount] of Object.entries(read.limits)) change.limits![key] = formatDollars(amount);
    return change;
  };
}

/** The body the server reads: blanks as null, limits left blank omitted, the others as typed. */
function toInput(draft: Draft, confirmed: boolean): CoverageInput {
  return {
    certificateDate: draft.certificateDate || null,
    confirmed,
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
  /**
   * A reading by AI that is done: each value read shows under its field with its confidence and
   * an Accept button; nothing changes in the form but by Accept (or Accept all). A save after any
   * accept keeps the coverage as read and confirmed.
   */
  reading?: Extraction;
};

/**
 * What a certificate of insurance shows, laid out like an ACORD 25: its date, who is insured, the
 * producer and the certificate holder, then each line with its insurer, policy, dates and limits.
 * The vendor page's Coverage dialog and the document's own page share it; the page adds what AI
 * read, beside each field.
 */
export function CoverageForm({ document, readOnly = false, onSaved, onCancel, reading }: CoverageFormProps) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(document));
  const [errors, setErrors] = useState<FieldErrors>({});
  // Kept as read and confirmed once anything read is accepted, and while the saved coverage is.
  const [confirmed, setConfirmed] = useState(document.coverage?.source === 'confirmed');
  const save = useSaveCoverage();
  const error = (field: string) => errors[field]?.[0];

  // The form's controls by field ('insured', 'general_liability.limits.eachOccurrence'): an
  // accepted value takes the focus to its field, once drawn (a line accepted may be new).
  const controls = useRef(new Map<string, HTMLInputElement>());
  const focusNext = useRef<string | null>(null);
  const control = (key: string) => (element: HTMLInputElement | null) => {
    if (element) controls.current.set(key, element);
    else controls.current.delete(key);
  };
  useEffect(() => {
    const key = focusNext.current;
    if (key === null) return;
    focusNext.current = null;
    controls.current.get(key)?.focus();
  });

  const suggestion = !readOnly && reading?.status === 'done' ? (reading.suggestion ?? null) : null;
  const scores = reading?.confidence ?? {};
  const { byKind, others } = suggestion
    ? suggestedLines(suggestion)
    : { byKind: new Map<CoverageLineKey, SuggestedLine>(), others: [] };

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

  /** One value read into the form, that field alone; the focus goes to it. */
  function accept(key: string, label: string, change: (draft: Draft) => Draft) {
    setDraft(change);
    setConfirmed(true);
    focusNext.current = key;
    toast({
      title: `${label} accepted`,
      description: 'Check it against the certificate, then save the coverage.',
      variant: 'success',
    });
  }

  function acceptAll() {
    if (!suggestion) return;
    setDraft((current) => {
      let next = { ...current };
      for (const field of TOP_FIELDS) {
        const value = suggestion[field];
        if (value) next = { ...next, [field]: value };
      }
      for (const { line } of byKind.values()) next = withLine(next, line.line, acceptedLine(line));
      return next;
    });
    setConfirmed(true);
    toast({
      title: 'Every value read is in the form',
      description: 'Check them against the certificate, then save the coverage.',
      variant: 'success',
    });
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setErrors({});
    save.mutate(
      { id: document.id, input: toInput(draft, confirmed) },
      {
        onSuccess: (saved) => {
          toast({ title: 'Coverage saved', description: `The coverage of ${document.fileName} is saved.`, variant: 'success' });
          setDraft(draftOf(saved));
          setConfirmed(saved.coverage?.source === 'confirmed');
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

  /** What was read for a field of the certificate itself, under it. */
  function topSuggestion(field: TopField) {
    const value = suggestion?.[field];
    if (!value) return null;
    const label = LABELS[field];
    return (
      <SuggestionRow
        name={inSentence(label)}
        shown={DATE_FIELDS.has(field) ? formatDate(value) : value}
        score={scores[field]}
        inForm={draft[field].trim() === value}
        onAccept={() => accept(field, label, (d) => ({ ...d, [field]: value }))}
      />
    );
  }

  /**
   * What was read for one line, by field ('policyNumber', 'limits.eachOccurrence'): each row goes
   * under its field in the form's line, or all are listed, named, for a line not in the form yet.
   */
  function lineSuggestions(kind: CoverageLineKey, formLine: LineDraft | undefined) {
    const read = byKind.get(kind);
    const rows = new Map<string, ReactNode>();
    if (!read) return rows;
    const path = (field: string) => `lines[${read.index}].${field}`;
    const standalone = formLine === undefined;
    for (const field of LINE_TEXT_FIELDS) {
      const value = read.line[field];
      if (!value) continue;
      const label = LABELS[field];
      rows.set(
        field,
        <SuggestionRow
          key={field}
          name={inSentence(label)}
          label={standalone ? label : undefined}
          shown={DATE_FIELDS.has(field) ? formatDate(value) : value}
          score={scores[path(field)]}
          inForm={(formLine?.[field] ?? '').trim() === value}
          onAccept={() =>
            accept(`${kind}.${field}`, `${LINE_LABELS[kind]} ${inSentence(label)}`, (d) =>
              withLine(d, kind, () => ({ [field]: value })),
            )
          }
        />,
      );
    }
    for (const { key } of LINE_LIMITS[kind]) {
      const amount = read.line.limits[key];
      if (amount === undefined) continue;
      const label = limitLabel(kind, key);
      rows.set(
        `limits.${key}`,
        <SuggestionRow
          key={key}
          name={inSentence(label)}
          label={standalone ? label : undefined}
          shown={formatDollars(amount)}
          score={scores[path(`limits.${key}`)]}
          inForm={sameAmount(formLine?.limits[key], amount)}
          onAccept={() =>
            accept(`${kind}.limits.${key}`, `${LINE_LABELS[kind]} ${inSentence(label)}`, (d) =>
              withLine(d, kind, (line) => ({ limits: { ...line.limits, [key]: formatDollars(amount) } })),
            )
          }
        />,
      );
    }
    for (const field of LINE_FLAGS) {
      const value = read.line[field];
      const label = LABELS[field];
      rows.set(
        field,
        <SuggestionRow
          key={field}
          name={inSentence(label)}
          label={standalone ? label : undefined}
          shown={value ? 'Yes' : 'No'}
          score={scores[path(field)]}
          inForm={formLine?.[field] === value}
          onAccept={() =>
            accept(`${kind}.${field}`, `${LINE_LABELS[kind]}: ${inSentence(label)}`, (d) =>
              withLine(d, kind, () => ({ [field]: value })),
            )
          }
        />,
      );
    }
    return rows;
  }

  const text = (field: 'insured' | 'producer' | 'certificateHolder' | 'certificateDate') => ({
    name: field,
    value: draft[field],
    invalid: Boolean(error(field)),
    ref: control(field),
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [field]: event.target.value }),
  });

  const expiresOn = suggestion && !document.expirationDate ? earliestExpiration(suggestion) : null;
  const notInForm = [...byKind.keys()].filter((kind) => !draft.lines.some((line) => line.line === kind));

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
        {suggestion && reading ? (
          <ReadingSummary
            notes={reading.notes}
            checks={reading.checks ?? []}
            others={others}
            expiresOn={expiresOn}
            onAcceptAll={acceptAll}
          />
        ) : null}
        <div className="grid gap-4 @md:grid-cols-2">
          <div className="min-w-0">
            <Field label="Certificate date" error={error('certificateDate')}>
              <Input type="date" {...text('certificateDate')} />
            </Field>
            {topSuggestion('certificateDate')}
          </div>
          <div className="min-w-0">
            <Field label="Insured" error={error('insured')}>
              <Input {...text('insured')} autoComplete="off" />
            </Field>
            {topSuggestion('insured')}
          </div>
          <div className="min-w-0">
            <Field label="Producer" error={error('producer')}>
              <Input {...text('producer')} autoComplete="off" />
            </Field>
            {topSuggestion('producer')}
          </div>
          <div className="min-w-0">
            <Field label="Certificate holder" error={error('certificateHolder')}>
              <Input {...text('certificateHolder')} autoComplete="off" />
            </Field>
            {topSuggestion('certificateHolder')}
          </div>
        </div>
        {draft.lines.length === 0 && notInForm.length === 0 ? (
          <p className="text-sm text-slate-500">
            {readOnly ? 'No lines entered.' : 'No lines yet: add each line the certificate shows.'}
          </p>
        ) : null}
        {draft.lines.map((line, index) => {
          const at = (field: string) => error(`lines[${index}].${field}`);
          const read = lineSuggestions(line.line, line);
          const lineText = (field: LineTextField) => ({
            value: line[field],
            invalid: Boolean(at(field)),
            ref: control(`${line.line}.${field}`),
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
                <div className="min-w-0 @md:col-span-2">
                  <Field label="Insurer" error={at('insurer')}>
                    <Input {...lineText('insurer')} autoComplete="off" />
                  </Field>
                  {read.get('insurer')}
                </div>
                <div className="min-w-0">
                  <Field label="NAIC" error={at('naic')}>
                    <Input {...lineText('naic')} autoComplete="off" inputMode="numeric" />
                  </Field>
                  {read.get('naic')}
                </div>
                <div className="min-w-0">
                  <Field label="Policy number" error={at('policyNumber')}>
                    <Input {...lineText('policyNumber')} autoComplete="off" />
                  </Field>
                  {read.get('policyNumber')}
                </div>
                <div className="min-w-0">
                  <Field label="Effective date" error={at('effectiveDate')}>
                    <Input type="date" {...lineText('effectiveDate')} />
                  </Field>
                  {read.get('effectiveDate')}
                </div>
                <div className="min-w-0">
                  <Field label="Expiration date" error={at('expirationDate')}>
                    <Input type="date" {...lineText('expirationDate')} />
                  </Field>
                  {read.get('expirationDate')}
                </div>
              </div>
              <div className="mt-3 grid gap-3 @md:grid-cols-2">
                {LINE_LIMITS[line.line].map(({ key }) => {
                  const message = at(`limits.${key}`);
                  return (
                    <div key={key} className="min-w-0">
                      <Field label={limitLabel(line.line, key)} error={message}>
                        <Input
                          ref={control(`${line.line}.limits.${key}`)}
                          inputMode="decimal"
                          autoComplete="off"
                          placeholder="Not shown"
                          value={line.limits[key] ?? ''}
                          invalid={Boolean(message)}
                          onChange={(event) => updateLine(index, { limits: { ...line.limits, [key]: event.target.value } })}
                        />
                      </Field>
                      {read.get(`limits.${key}`)}
                    </div>
                  );
                })}
              </div>
              <div className="mt-3 grid gap-2 @md:grid-cols-2 @md:gap-x-6">
                {LINE_FLAGS.map((flag) => (
                  <div key={flag} className="min-w-0">
                    <label className="flex items-center gap-2 text-sm text-slate-700">
                      <Checkbox
                        ref={control(`${line.line}.${flag}`)}
                        checked={line[flag]}
                        onChange={(event) => updateLine(index, { [flag]: event.target.checked })}
                      />
                      {LABELS[flag]}
                    </label>
                    {read.get(flag)}
                  </div>
                ))}
              </div>
            </fieldset>
          );
        })}
        {notInForm.map((kind) => (
          <fieldset key={kind} className="min-w-0 rounded-xl border border-dashed border-violet-300 p-4">
            <legend className="px-1 text-sm font-semibold text-slate-900">{`${LINE_LABELS[kind]}, read but not in the form`}</legend>
            <p className="text-sm text-slate-600">Accept a value to add this line to the form.</p>
            {[...lineSuggestions(kind, undefined).values()]}
          </fieldset>
        ))}
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

type ReadingSummaryProps = {
  notes: string[];
  /** What the certificate shows that a person should look at: insured, date, holder. */
  checks: string[];
  /** Lines read beyond the first of their kind: the form holds one of each. */
  others: SuggestedLine[];
  /** The date a save gives a document without one: the earliest expiration read. */
  expiresOn: string | null;
  onAcceptAll: () => void;
};

/** Above the form when AI has read the certificate: how to take what it read, and what it left out. */
function ReadingSummary({ notes, checks, others, expiresOn, onAcceptAll }: ReadingSummaryProps) {
  return (
    <div className="space-y-3 rounded-lg border border-violet-200 bg-violet-50/50 p-4" data-testid="reading-summary">
      <div className="flex flex-col gap-3 @md:flex-row @md:items-start @md:justify-between">
        <div className="min-w-0">
          <h3 className="text-sm font-semibold text-slate-900">Read by AI</h3>
          <p className="mt-1 text-sm text-slate-600">
            Each value read is under its field, with how sure the reader is: High, Medium or Low. Accept what matches the
            certificate, then save; nothing is kept until you do.
          </p>
        </div>
        <Button variant="outline" size="sm" className="shrink-0 self-start" onClick={onAcceptAll}>
          Accept all
        </Button>
      </div>
      {expiresOn ? (
        <p className="text-sm text-slate-700">{`This document has no expiration date: saving sets it to ${formatDate(expiresOn)}.`}</p>
      ) : null}
      {others.length > 0 ? (
        <p className="text-sm text-slate-700">
          {`The certificate shows more than one policy of a line; the form holds one of each, the first read: also read ${others
            .map(({ line }) => `${inSentence(LINE_LABELS[line.line])}${line.policyNumber ? ` ${line.policyNumber}` : ''}`)
            .join(', ')}.`}
        </p>
      ) : null}
      {checks.length > 0 ? (
        <div data-testid="reading-checks">
          <h4 className="text-sm font-medium text-amber-900">Check before you accept</h4>
          <ul className="mt-1 list-disc space-y-1 pl-5 text-sm text-amber-900">
            {checks.map((check) => (
              <li key={check}>{check}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {notes.length > 0 ? (
        <div>
          <h4 className="text-sm font-medium text-slate-900">Left out by the reader</h4>
          <ul className="mt-1 list-disc space-y-1 pl-5 text-sm text-slate-700">
            {notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
