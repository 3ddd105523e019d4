import { SparklesIcon } from '@heroicons/react/20/solid';
import { useState, type FormEvent } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/field';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import {
  AI_CATEGORY_MAX,
  AI_DEFAULT_CATEGORY,
  AI_DEFAULT_WORD_COUNT,
  AI_KEYWORD_MAX,
  AI_MAX_KEYWORDS,
  AI_MAX_WORD_COUNT,
  AI_MIN_WORD_COUNT,
  AI_POST_COST,
} from '@/config';
import { ERROR_CODES, serverMessage, type ApiError } from '@/lib/api-error';
import { formatUsd } from '@/lib/format';
import type { ContentTone, GenerateContentInput } from '@/types/api';
import { useGenerateContent } from '../api/generate-content';
import { useSuggestKeywords } from '../api/get-keyword-suggestions';
import { parseKeywordList, TONE_OPTIONS } from '../lib/content-labels';
import { AiNotConfigured } from './ai-not-configured';
import { GENERATE_FAILED_TEXT, SUGGESTIONS_FAILED_TEXT } from '../lib/content-messages';
import { GenerationProgress } from './generation-progress';

type Values = { keywords: string; category: string; tone: ContentTone; wordCount: string };
type Errors = Partial<Record<Exclude<keyof Values, 'tone'>, string>>;

/** The form's own checks, the same limits as the server's. */
export function checkGenerateValues(values: Values): { input?: GenerateContentInput; errors: Errors } {
  const errors: Errors = {};
  const keywords = parseKeywordList(values.keywords);
  if (keywords.length === 0) errors.keywords = 'Enter at least one keyword.';
  else if (keywords.length > AI_MAX_KEYWORDS) errors.keywords = `Enter at most ${AI_MAX_KEYWORDS} keywords.`;
  else if (keywords.some((keyword) => keyword.length > AI_KEYWORD_MAX))
    errors.keywords = `A keyword is at most ${AI_KEYWORD_MAX} characters.`;
  const category = values.category.trim() || AI_DEFAULT_CATEGORY;
  if (category.length > AI_CATEGORY_MAX) errors.category = `At most ${AI_CATEGORY_MAX} characters.`;
  const wordCount = Number(values.wordCount);
  if (!Number.isInteger(wordCount) || wordCount < AI_MIN_WORD_COUNT || wordCount > AI_MAX_WORD_COUNT) {
    errors.wordCount = `A whole number from ${AI_MIN_WORD_COUNT} to ${AI_MAX_WORD_COUNT}.`;
  }
  if (Object.keys(errors).length) return { errors };
  return { input: { targetKeywords: keywords, category, tone: values.tone, wordCount }, errors };
}

/** The server's 422 field errors, on the form's fields ('targetKeywords[2]' is the keywords field). */
function serverErrors(error: ApiError | null): Errors {
  if (error?.code !== ERROR_CODES.validationFailed) return {};
  const first = (prefix: string) =>
    Object.entries(error.errors).find(([key]) => key === prefix || key.startsWith(`${prefix}[`))?.[1][0];
  return {
    keywords: first('targetKeywords'),
    category: first('category'),
    wordCount: first('wordCount'),
  };
}

type AiGenerateDialogProps = {
  open: boolean;
  onClose: () => void;
  /** Keywords to start with (a suggestion's Generate button). */
  initialKeywords: readonly string[];
  /** False when the server has no AI key (content-stats). */
  aiConfigured: boolean;
};

/** Generate with AI: the draft is written by a background job, followed here until it is ready. */
export function AiGenerateDialog({ open, onClose, initialKeywords, aiConfigured }: AiGenerateDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Generate with AI"
      description={`AI writes a draft blog post for you to review. It takes 30-60 seconds and costs about ${formatUsd(AI_POST_COST)} per post.`}
      className="max-w-xl"
    >
      <GenerateForm initialKeywords={initialKeywords} aiConfigured={aiConfigured} onClose={onClose} />
    </Dialog>
  );
}

function GenerateForm({ initialKeywords, aiConfigured, onClose }: Omit<AiGenerateDialogProps, 'open'>) {
  const generate = useGenerateContent();
  const suggest = useSuggestKeywords();
  const [values, setValues] = useState<Values>(() => ({
    keywords: initialKeywords.join(', '),
    category: AI_DEFAULT_CATEGORY,
    tone: 'professional',
    wordCount: String(AI_DEFAULT_WORD_COUNT),
  }));
  const [errors, setErrors] = useState<Errors>({});
  const [jobId, setJobId] = useState<number | null>(null);
  const notConfigured = !aiConfigured || generate.error?.code === ERROR_CODES.aiNotConfigured;
  const refused = serverErrors(generate.error);
  const fieldErrors = { ...refused, ...errors };
  // A refusal the fields cannot show (a tone the server does not know): its sentence.
  const refusedOther = generate.error?.code === ERROR_CODES.validationFailed && !Object.values(refused).some(Boolean);
  const keywords = parseKeywordList(values.keywords);
  const locked = generate.isPending || jobId !== null;

  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((current) => ({ ...current, [key]: value }));

  function onSuggest() {
    suggest.mutate(undefined, {
      onSuccess: (suggested) => set('keywords', suggested.slice(0, AI_MAX_KEYWORDS).join(', ')),
      onError: (error) => toast({ title: SUGGESTIONS_FAILED_TEXT, description: serverMessage(error), variant: 'error' }),
    });
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const checked = checkGenerateValues(values);
    setErrors(checked.errors);
    if (!checked.input) return;
    generate.mutate(checked.input, {
      onSuccess: ({ jobId: id }) => setJobId(id),
      onError: (error) => {
        if (error.code === ERROR_CODES.aiNotConfigured || error.code === ERROR_CODES.validationFailed) return;
        toast({ title: GENERATE_FAILED_TEXT, description: serverMessage(error), variant: 'error' });
      },
    });
  }

  function again() {
    setJobId(null);
    generate.reset();
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Generate with AI">
      {notConfigured ? <AiNotConfigured /> : null}
      <fieldset disabled={locked || notConfigured} className="space-y-4">
        <Field label="Target keywords" hint={`1 to ${AI_MAX_KEYWORDS}, separated by commas.`} error={fieldErrors.keywords}>
          <Input
            value={values.keywords}
            onChange={(e) => set('keywords', e.target.value)}
            invalid={Boolean(fieldErrors.keywords)}
            placeholder="vendor onboarding checklist, w-9 forms"
            autoComplete="off"
          />
        </Field>
        <div className="flex flex-wrap items-center gap-2">
          {keywords.length ? (
            <ul aria-label="Keywords to target" className="flex flex-wrap gap-1.5">
              {keywords.map((keyword) => (
                <li key={keyword}>
                  <Badge color="blue">{keyword}</Badge>
                </li>
              ))}
            </ul>
          ) : null}
          <Button variant="ghost" size="sm" onClick={onSuggest} disabled={suggest.isPending}>
            <SparklesIcon aria-hidden className="size-4" />
            {suggest.isPending ? 'Suggesting...' : 'Suggest keywords'}
          </Button>
        </div>
        {suggest.isError ? (
          <p role="alert" className="text-sm text-red-600">
            {SUGGESTIONS_FAILED_TEXT}
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Category" error={fieldErrors.category}>
            <Input
              value={values.category}
              onChange={(e) => set('category', e.target.value)}
              invalid={Boolean(fieldErrors.category)}
              maxLength={AI_CATEGORY_MAX}
            />
          </Field>
          <Select label="Tone" value={values.tone} onChange={(tone) => set('tone', tone)} options={TONE_OPTIONS} />
        </div>
        <Field
          label="Word count"
          hint={`${AI_MIN_WORD_COUNT.toLocaleString('en-US')} to ${AI_MAX_WORD_COUNT.toLocaleString('en-US')} words.`}
          error={fieldErrors.wordCount}
          className="sm:max-w-[calc(50%-0.5rem)]"
        >
          <Input
            type="number"
            inputMode="numeric"
            min={AI_MIN_WORD_COUNT}
            max={AI_MAX_WORD_COUNT}
            step={100}
            value={values.wordCount}
            onChange={(e) => set('wordCount', e.target.value)}
            invalid={Boolean(fieldErrors.wordCount)}
          />
        </Field>
      </fieldset>
      {refusedOther ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {generate.error?.message}
        </p>
      ) : null}
      <p className="text-xs text-slate-500">The post is saved as a draft: nothing is published until you publish it.</p>
      {jobId !== null ? <GenerationProgress jobId={jobId} onAgain={again} /> : null}
      <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
        {jobId === null ? (
          <Button type="submit" disabled={generate.isPending || notConfigured}>
            <SparklesIcon aria-hidden className="size-4" />
            {generate.isPending ? 'Starting...' : 'Generate'}
          </Button>
        ) : null}
      </div>
    </form>
  );
}
