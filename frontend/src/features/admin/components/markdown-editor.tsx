import { BoldIcon, H2Icon, ItalicIcon, LinkIcon, ListBulletIcon, NumberedListIcon } from '@heroicons/react/20/solid';
import { useLayoutEffect, useRef, type ComponentType, type KeyboardEvent, type SVGProps } from 'react';
import { inputClasses } from '@/components/ui/field';
import { cn } from '@/lib/cn';
import { applyMarkdownFormat, type MarkdownFormat } from '../lib/markdown-format';

const tools: { format: MarkdownFormat; label: string; icon: ComponentType<SVGProps<SVGSVGElement>> }[] = [
  { format: 'heading', label: 'Heading', icon: H2Icon },
  { format: 'bold', label: 'Bold (Ctrl+B)', icon: BoldIcon },
  { format: 'italic', label: 'Italic', icon: ItalicIcon },
  { format: 'link', label: 'Link (Ctrl+K)', icon: LinkIcon },
  { format: 'bulleted', label: 'Bulleted list', icon: ListBulletIcon },
  { format: 'numbered', label: 'Numbered list', icon: NumberedListIcon },
];

const shortcuts: Record<string, MarkdownFormat> = { b: 'bold', k: 'link' };

type MarkdownEditorProps = {
  id: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  describedBy?: string;
};

/** A Markdown textarea with a toolbar that writes the syntax around the selection. */
export function MarkdownEditor({ id, value, onChange, invalid, describedBy }: MarkdownEditorProps) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const pendingSelection = useRef<[number, number] | null>(null);

  // Put the caret back once React has written the new text into the textarea.
  useLayoutEffect(() => {
    const element = textarea.current;
    const selection = pendingSelection.current;
    if (!element || !selection) return;
    pendingSelection.current = null;
    element.focus();
    element.setSelectionRange(selection[0], selection[1]);
  }, [value]);

  function format(kind: MarkdownFormat) {
    const element = textarea.current;
    const start = element?.selectionStart ?? value.length;
    const end = element?.selectionEnd ?? value.length;
    const result = applyMarkdownFormat(value, start, end, kind);
    pendingSelection.current = [result.selectionStart, result.selectionEnd];
    onChange(result.value);
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const kind = shortcuts[event.key.toLowerCase()];
    if (!kind) return;
    event.preventDefault();
    format(kind);
  }

  return (
    <div className="overflow-hidden rounded-lg border border-slate-300 shadow-sm focus-within:border-blue-500 focus-within:ring-2 focus-within:ring-blue-500/30">
      <div
        role="toolbar"
        aria-label="Formatting"
        className="flex flex-wrap gap-1 border-b border-slate-200 bg-slate-50 px-2 py-1"
      >
        {tools.map(({ format: kind, label, icon: Icon }) => (
          <button
            key={kind}
            type="button"
            title={label}
            aria-label={label}
            aria-controls={id}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => format(kind)}
            className="inline-flex size-8 items-center justify-center rounded-md text-slate-600 hover:bg-slate-200 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-600"
          >
            <Icon aria-hidden className="size-5" />
          </button>
        ))}
      </div>
      <textarea
        ref={textarea}
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        rows={18}
        spellCheck
        className={cn(inputClasses, 'min-h-72 rounded-none border-0 font-mono shadow-none focus:ring-0 sm:text-sm')}
      />
    </div>
  );
}
