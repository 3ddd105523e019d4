import { ExclamationTriangleIcon } from '@heroicons/react/24/outline';
import { cn } from '@/lib/cn';

export const AI_NOT_CONFIGURED_TITLE = 'AI is not configured';

const code = 'rounded bg-amber-100 px-1 py-0.5 font-mono text-xs text-amber-900';

/**
 * Said wherever AI would be used while the server has no key: nothing is ever faked as
 * generated (docs/decisions.md, 17), so the operator is told how to turn it on.
 */
export function AiNotConfigured({ className }: { className?: string }) {
  return (
    <div
      role="note"
      aria-label={AI_NOT_CONFIGURED_TITLE}
      className={cn('flex gap-3 rounded-lg border border-amber-200 bg-amber-50 p-4', className)}
    >
      <ExclamationTriangleIcon aria-hidden className="size-5 shrink-0 text-amber-600" />
      <div className="min-w-0 text-sm text-amber-900">
        <p className="font-semibold">{AI_NOT_CONFIGURED_TITLE}</p>
        <p className="mt-1">
          To write posts with AI, set <code className={code}>OPENAI_API_KEY</code> on the server (and optionally{' '}
          <code className={code}>OPENAI_BASE_URL</code> for any OpenAI-compatible endpoint and{' '}
          <code className={code}>OPENAI_MODEL</code>), then restart the server.
        </p>
      </div>
    </div>
  );
}
