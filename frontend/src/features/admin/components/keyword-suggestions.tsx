import { LightBulbIcon } from '@heroicons/react/24/outline';
import { SparklesIcon } from '@heroicons/react/20/solid';
import { Button } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { LoadingBlock } from '@/components/ui/query-state';
import { useKeywordSuggestions } from '../api/get-keyword-suggestions';
import { SUGGESTIONS_FAILED_TEXT } from '../lib/content-messages';

type KeywordSuggestionsProps = {
  onGenerate: (keyword: string) => void;
  aiConfigured: boolean;
};

/** The next keywords to write about (unused ones, best first), each a click from the AI dialog. */
export function KeywordSuggestions({ onGenerate, aiConfigured }: KeywordSuggestionsProps) {
  const suggestions = useKeywordSuggestions();
  let body;
  if (suggestions.isPending) body = <LoadingBlock label="Loading keyword suggestions" />;
  else if (suggestions.isError) {
    body = (
      <div role="alert" className="flex flex-col items-start gap-2 px-5 py-4 text-sm text-red-700">
        <p>{SUGGESTIONS_FAILED_TEXT}</p>
        <Button variant="outline" size="sm" onClick={() => void suggestions.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else if (suggestions.data.length === 0) {
    body = <p className="px-5 py-4 text-sm text-slate-500">No suggestions yet: upload keywords first.</p>;
  } else {
    body = (
      <ul aria-label="Suggested keywords" className="divide-y divide-slate-100">
        {suggestions.data.map((keyword) => (
          <li key={keyword} className="flex items-center justify-between gap-3 px-5 py-3">
            <span className="flex min-w-0 items-start gap-2 text-sm text-slate-800">
              <LightBulbIcon aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-500" />
              <span className="min-w-0 break-words">{keyword}</span>
            </span>
            <Button
              variant="outline"
              size="sm"
              disabled={!aiConfigured}
              className="shrink-0"
              onClick={() => onGenerate(keyword)}
              aria-label={`Generate a post about ${keyword}`}
            >
              <SparklesIcon aria-hidden className="size-4" />
              Generate
            </Button>
          </li>
        ))}
      </ul>
    );
  }
  return (
    <Card>
      <CardHeader title="Suggested keywords" description="Unused keywords, best first." />
      {body}
    </Card>
  );
}
