import { ClipboardDocumentIcon } from '@heroicons/react/20/solid';
import { forwardRef } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';

type CopyButtonProps = {
  value: string;
  /** What is copied, for the button's accessible name ('Copy API key') and the toast. */
  what: string;
  'aria-describedby'?: string;
  autoFocus?: boolean;
};

/** Copies `value` to the clipboard and says so in a toast. */
export const CopyButton = forwardRef<HTMLButtonElement, CopyButtonProps>(function CopyButton({ value, what, ...props }, ref) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      toast({ title: 'Copied', description: `The ${what} is on your clipboard.`, variant: 'success' });
    } catch {
      toast({ title: 'Copy failed', description: 'Select the text and copy it by hand.', variant: 'error' });
    }
  }
  return (
    <Button ref={ref} variant="outline" onClick={() => void copy()} aria-label={`Copy ${what}`} {...props}>
      <ClipboardDocumentIcon aria-hidden className="size-4" />
      Copy
    </Button>
  );
});
