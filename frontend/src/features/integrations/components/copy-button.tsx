import { CheckIcon, ClipboardDocumentIcon } from '@heroicons/react/20/solid';
import { forwardRef, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';

type CopyButtonProps = {
  value: string;
  /** What is copied, for the button's accessible name ('Copy API key') and the toast. */
  what: string;
  'aria-describedby'?: string;
  autoFocus?: boolean;
};

/**
 * Copies `value` to the clipboard and says so: on the button itself ("Copied", announced by a
 * live region beside it, which also works inside a dialog, where the page's toasts are inert)
 * and in a toast.
 */
export const CopyButton = forwardRef<HTMLButtonElement, CopyButtonProps>(function CopyButton({ value, what, ...props }, ref) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), 2500);
    return () => window.clearTimeout(timer);
  }, [copied]);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast({ title: 'Copied', description: `The ${what} is on your clipboard.`, variant: 'success' });
    } catch {
      toast({ title: 'Copy failed', description: 'Select the text and copy it by hand.', variant: 'error' });
    }
  }
  const Icon = copied ? CheckIcon : ClipboardDocumentIcon;
  return (
    <>
      <Button ref={ref} variant="outline" onClick={() => void copy()} aria-label={`Copy ${what}`} {...props}>
        <Icon aria-hidden className="size-4" />
        {copied ? 'Copied' : 'Copy'}
      </Button>
      <span aria-live="polite" className="sr-only">
        {copied ? `Copied: the ${what} is on your clipboard.` : ''}
      </span>
    </>
  );
});
