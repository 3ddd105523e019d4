import { CheckIcon, SparklesIcon } from '@heroicons/react/20/solid';
import { Badge, type BadgeColor } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { confidenceLevel, type ConfidenceLevel } from '../lib/suggestion';

const LEVEL_COLORS: Record<ConfidenceLevel, BadgeColor> = { High: 'green', Medium: 'yellow', Low: 'red' };

/** How sure the reader is of a value: High, Medium or Low in words, the colour only on top. */
export function ConfidenceMark({ score }: { score: number }) {
  const level = confidenceLevel(score);
  return (
    <Badge color={LEVEL_COLORS[level]} className="shrink-0">
      {level}
      <span className="sr-only"> confidence</span>
    </Badge>
  );
}

type SuggestionRowProps = {
  /** The field's name in a sentence, for the button's name: 'policy number' gives 'Accept policy number'. */
  name: string;
  /** The value read, as the page shows values ('Jan 1, 2027', '$1,000,000', 'Yes'). */
  shown: string;
  /** The reader's confidence, 0 to 1; none shown without one. */
  score?: number;
  /** The form already holds this value: nothing to accept. */
  inForm: boolean;
  onAccept: () => void;
  /** Written before the value instead of 'Read:' (a line not in the form yet names each field). */
  label?: string;
  className?: string;
};

/**
 * A value the AI reader found, under the field it belongs to, with its confidence and Accept; once
 * the field holds it, a quiet line saying so.
 */
export function SuggestionRow({ name, shown, score, inForm, onAccept, label, className }: SuggestionRowProps) {
  const mark = score !== undefined ? <ConfidenceMark score={score} /> : null;
  if (inForm) {
    return (
      <p
        data-testid="suggestion"
        className={cn('mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-emerald-700', className)}
      >
        <CheckIcon aria-hidden className="size-4 shrink-0" />
        {label ? <span className="text-slate-600">{`${label}:`}</span> : null}
        <span>In the form, as read</span> {mark}
      </p>
    );
  }
  return (
    <div
      data-testid="suggestion"
      className={cn('mt-1.5 flex min-w-0 items-start gap-2 rounded-md bg-violet-50 px-2 py-1.5 text-sm', className)}
    >
      <SparklesIcon aria-hidden className="mt-1.5 size-4 shrink-0 text-violet-600" />
      <p className="min-w-0 flex-1 py-1 break-words">
        <span className="text-slate-600">{label ? `${label}: ` : 'Read: '}</span>
        <span className="font-medium text-slate-900">{shown}</span> {mark}
      </p>
      <Button variant="outline" size="sm" className="shrink-0" aria-label={`Accept ${name}`} onClick={onAccept}>
        Accept
      </Button>
    </div>
  );
}
