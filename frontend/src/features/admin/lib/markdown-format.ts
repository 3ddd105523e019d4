import { EXCERPT_FALLBACK_LENGTH } from '@/config';

export type MarkdownFormat = 'heading' | 'bold' | 'italic' | 'link' | 'bulleted' | 'numbered';

/** The text after an edit and the selection to restore in the textarea. */
export type FormatResult = { value: string; selectionStart: number; selectionEnd: number };

const placeholders: Record<'bold' | 'italic' | 'link', string> = {
  bold: 'bold text',
  italic: 'italic text',
  link: 'link text',
};

function wrap(value: string, start: number, end: number, before: string, after: string, placeholder: string): FormatResult {
  const selected = value.slice(start, end) || placeholder;
  const next = value.slice(0, start) + before + selected + after + value.slice(end);
  return { value: next, selectionStart: start + before.length, selectionEnd: start + before.length + selected.length };
}

/** Prefixes every line the selection touches; `prefix` gets the line's index among them. */
function prefixLines(value: string, start: number, end: number, prefix: (index: number) => string): FormatResult {
  const lineStart = value.lastIndexOf('\n', start - 1) + 1;
  const endBound = end > start && value[end - 1] === '\n' ? end - 1 : end;
  const nextBreak = value.indexOf('\n', endBound);
  const lineEnd = nextBreak === -1 ? value.length : nextBreak;
  const lines = value.slice(lineStart, lineEnd).split('\n');
  const block = lines.map((line, index) => prefix(index) + line).join('\n');
  const next = value.slice(0, lineStart) + block + value.slice(lineEnd);
  const firstPrefix = prefix(0).length;
  if (start === end) return { value: next, selectionStart: start + firstPrefix, selectionEnd: start + firstPrefix };
  return { value: next, selectionStart: lineStart, selectionEnd: lineStart + block.length };
}

/**
 * Inserts Markdown around the selection [start, end): **bold**, *italic*, [text](url), a
 * '## ' heading, '- ' or '1. ' list items. An empty selection gets a placeholder, selected so typing
 * replaces it; a link selects its 'url' part.
 */
export function applyMarkdownFormat(value: string, start: number, end: number, format: MarkdownFormat): FormatResult {
  switch (format) {
    case 'bold':
      return wrap(value, start, end, '**', '**', placeholders.bold);
    case 'italic':
      return wrap(value, start, end, '*', '*', placeholders.italic);
    case 'link': {
      const wrapped = wrap(value, start, end, '[', '](url)', placeholders.link);
      const urlStart = wrapped.selectionEnd + 2;
      return { value: wrapped.value, selectionStart: urlStart, selectionEnd: urlStart + 3 };
    }
    case 'heading':
      return prefixLines(value, start, end, () => '## ');
    case 'bulleted':
      return prefixLines(value, start, end, () => '- ');
    case 'numbered':
      return prefixLines(value, start, end, (index) => `${index + 1}. `);
  }
}

/** Markdown reduced to its words, for an excerpt. */
export function markdownToPlainText(markdown: string): string {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s{0,3}(#{1,6}\s+|>\s?|[-*+]\s+|\d+\.\s+)/gm, '')
    .replace(/[*_`~]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** docs/product.md, "Blog": an empty excerpt defaults to the first 200 characters plus an ellipsis. */
export function excerptFromContent(content: string): string {
  const text = markdownToPlainText(content);
  return text.length > EXCERPT_FALLBACK_LENGTH ? `${text.slice(0, EXCERPT_FALLBACK_LENGTH).trimEnd()}...` : text;
}

/** 'vendor risk, coi ,, w9' -> ['vendor risk', 'coi', 'w9'] (no empties, no repeats). */
export function parseTags(text: string): string[] {
  const tags = text
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
  return [...new Set(tags)];
}
