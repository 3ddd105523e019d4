import { ArrowPathIcon, ClipboardDocumentIcon } from '@heroicons/react/20/solid';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/field';
import { toast } from '@/components/ui/toast';

type CompanyKeyFieldProps = {
  label: string;
  value: string;
  hint: string;
  error?: string;
  onGenerate?: () => void;
};

/** The read-only company key (the vendor id), with copy and, on add, 'Generate New Key'. */
export function CompanyKeyField({ label, value, hint, error, onGenerate }: CompanyKeyFieldProps) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      toast({ title: 'Copied', description: `${label} ${value} copied to the clipboard.` });
    } catch {
      toast({ title: 'Copy failed', description: 'Select the key and copy it by hand.', variant: 'error' });
    }
  }
  return (
    <Field label={label} hint={hint} error={error}>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          value={value}
          readOnly
          invalid={Boolean(error)}
          className="bg-slate-50! font-mono tracking-widest sm:max-w-56"
          data-testid="company-key"
        />
        <div className="flex gap-2">
          <Button variant="outline" onClick={() => void copy()} aria-label={`Copy ${label}`}>
            <ClipboardDocumentIcon aria-hidden className="size-4" />
            Copy
          </Button>
          {onGenerate ? (
            <Button variant="outline" onClick={onGenerate}>
              <ArrowPathIcon aria-hidden className="size-4" />
              Generate New Key
            </Button>
          ) : null}
        </div>
      </div>
    </Field>
  );
}
