import { ArrowPathIcon } from '@heroicons/react/20/solid';
import { TrashIcon } from '@heroicons/react/24/outline';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { AddLinePicker } from '@/components/compliance/add-line-picker';
import { toast } from '@/components/ui/toast';
import { useRequirementTemplates } from '@/lib/api/requirement-sets';
import { errorMessage, isApiError, type FieldErrors } from '@/lib/api-error';
import { formatDollars, limitLabel, LINE_LABELS, LINE_LIMITS } from '@/lib/domain/coverage';
import type { CoverageLineKey, RequirementLine, RequirementSet, RequirementSetInput } from '@/types/api';
import { useSaveRequirementSet } from '../api/save-requirement-set';

type LineDraft = {
  line: CoverageLineKey;
  minimums: Record<string, string>;
  additionalInsured: boolean;
  waiverOfSubrogation: boolean;
};

type Draft = { name: string; lines: LineDraft[] };

function lineDraft(line: RequirementLine): LineDraft {
  const minimums: Record<string, string> = {};
  for (const [key, amount] of Object.entries(line.minimums)) minimums[key] = formatDollars(amount);
  return { line: line.line, minimums, additionalInsured: line.additionalInsured, waiverOfSubrogation: line.waiverOfSubrogation };
}

function draftOf(set: Pick<RequirementSet, 'name' | 'lines'> | null): Draft {
  return set ? { name: set.name, lines: set.lines.map(lineDraft) } : { name: '', lines: [] };
}

/** The body the server reads: blank amounts left out (no minimum), the others as typed. */
export function toInput(draft: Draft): RequirementSetInput {
  return {
    name: draft.name.trim(),
    lines: draft.lines.map((line) => ({
      line: line.line,
      minimums: Object.fromEntries(
        Object.entries(line.minimums)
          .map(([key, value]) => [key, value.trim()] as const)
          .filter(([, value]) => value !== ''),
      ),
      additionalInsured: line.additionalInsured,
      waiverOfSubrogation: line.waiverOfSubrogation,
    })),
  };
}

const BLANK = '';

/**
 * The set form: a name and its lines, each with its limits' minimums as typed ("$1M") and the
 * endorsements. A new set may start from a template. The server names every problem at once
 * (`lines[0].minimums.eachOccurrence`), each shown under its field.
 */
export function RequirementSetDialog({
  open,
  onClose,
  set,
}: {
  open: boolean;
  onClose: () => void;
  /** The set to edit; null for a new one. */
  set: RequirementSet | null;
}) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={set ? `Edit ${set.name}` : 'New requirement set'}
      description="What a vendor must carry. Type amounts the way you would say them: $1M, 500K, 2,000,000."
      className="max-w-2xl"
    >
      {/* Mounted while open only: each opening starts from the set as saved. */}
      {open ? <SetForm key={set?.id ?? 'new'} set={set} onClose={onClose} /> : null}
    </Dialog>
  );
}

function SetForm({ set, onClose }: { set: RequirementSet | null; onClose: () => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(set));
  const [template, setTemplate] = useState(BLANK);
  const [errors, setErrors] = useState<FieldErrors>({});
  const templates = useRequirementTemplates({ enabled: set === null });
  const save = useSaveRequirementSet();

  const error = (field: string) => errors[field]?.[0];

  function chooseTemplate(key: string) {
    setTemplate(key);
    const chosen = templates.data?.find((t) => t.key === key);
    if (chosen) setDraft({ name: draft.name.trim() ? draft.name : chosen.name, lines: chosen.lines.map(lineDraft) });
    else setDraft({ ...draft, lines: [] });
    setErrors({});
  }

  function updateLine(index: number, change: Partial<LineDraft>) {
    setDraft({ ...draft, lines: draft.lines.map((line, i) => (i === index ? { ...line, ...change } : line)) });
  }

  function addLine(line: CoverageLineKey) {
    setDraft({
      ...draft,
      lines: [...draft.lines, { line, minimums: {}, additionalInsured: false, waiverOfSubrogation: false }],
    });
    // Errors of later lines would point at the wrong line once the indexes move.
    setErrors({});
  }

  function removeLine(index: number) {
    setDraft({ ...draft, lines: draft.lines.filter((_, i) => i !== index) });
    setErrors({});
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!draft.name.trim()) {
      setErrors({ name: ['Enter a name for the set.'] });
      return;
    }
    setErrors({});
    save.mutate(
      { id: set?.id, input: toInput(draft) },
      {
        onSuccess: (saved) => {
          toast({ title: 'Requirement set saved', description: `${saved.name} is saved.`, variant: 'success' });
          onClose();
        },
        onError: (failure) => {
          if (isApiError(failure)) setErrors(failure.errors);
          toast({
            title: 'Could not save the requirement set',
            description: errorMessage(failure, 'Failed to save the requirement set'),
            variant: 'error',
          });
        },
      },
    );
  }

  const templateOptions = [
    { value: BLANK, label: 'Blank set' },
    ...(templates.data ?? []).map((t) => ({ value: t.key, label: t.name })),
  ];
  const chosenTemplate = templates.data?.find((t) => t.key === template);

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-label={set ? `Edit ${set.name}` : 'New requirement set'}>
      {set === null ? (
        <div>
          <Select
            label="Start from"
            value={template}
            onChange={chooseTemplate}
            options={templateOptions}
            disabled={templates.isPending}
            placeholder={templates.isPending ? 'Loading templates...' : 'Blank set'}
          />
          {chosenTemplate ? <p className="mt-1 text-xs text-slate-500">{chosenTemplate.description}</p> : null}
        </div>
      ) : null}
      <Field label="Name" error={error('name')}>
        <Input
          name="name"
          maxLength={200}
          value={draft.name}
          invalid={Boolean(error('name'))}
          onChange={(event) => setDraft({ ...draft, name: event.target.value })}
        />
      </Field>
      {error('lines') ? (
        <p role="alert" className="text-sm text-red-600">
          {error('lines')}
        </p>
      ) : null}
      {draft.lines.length === 0 ? (
        <p className="text-sm text-slate-500">No lines yet: add the insurance a vendor must carry.</p>
      ) : null}
      {draft.lines.map((line, index) => (
        <fieldset key={line.line} className="relative rounded-xl border border-slate-200 p-4">
          <legend className="float-left w-full pr-24 text-sm font-semibold text-slate-900">{LINE_LABELS[line.line]}</legend>
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
          {error(`lines[${index}].line`) ? (
            <p role="alert" className="mt-1 text-sm text-red-600">
              {error(`lines[${index}].line`)}
            </p>
          ) : null}
          <div className="mt-3 grid gap-3 sm:grid-cols-2">
            {LINE_LIMITS[line.line].map(({ key }) => {
              const message = error(`lines[${index}].minimums.${key}`);
              return (
                <Field key={key} label={limitLabel(line.line, key)} error={message}>
                  <Input
                    inputMode="decimal"
                    autoComplete="off"
                    placeholder="No minimum"
                    value={line.minimums[key] ?? ''}
                    invalid={Boolean(message)}
                    onChange={(event) => updateLine(index, { minimums: { ...line.minimums, [key]: event.target.value } })}
                  />
                </Field>
              );
            })}
          </div>
          <div className="mt-3 flex flex-col gap-2 sm:flex-row sm:gap-6">
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <Checkbox
                checked={line.additionalInsured}
                onChange={(event) => updateLine(index, { additionalInsured: event.target.checked })}
              />
              Additional insured required
            </label>
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <Checkbox
                checked={line.waiverOfSubrogation}
                onChange={(event) => updateLine(index, { waiverOfSubrogation: event.target.checked })}
              />
              Waiver of subrogation required
            </label>
          </div>
        </fieldset>
      ))}
      <AddLinePicker taken={draft.lines.map((l) => l.line)} onAdd={addLine} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending} aria-busy={save.isPending || undefined}>
          {save.isPending ? <ArrowPathIcon aria-hidden className="size-4 animate-spin" /> : null}
          {save.isPending ? 'Saving...' : 'Save set'}
        </Button>
      </div>
    </form>
  );
}
