import { describe, expect, it } from 'vitest';
import { applyMarkdownFormat, excerptFromContent, parseTags } from './markdown-format';

describe('applyMarkdownFormat', () => {
  it('wraps the selection in bold and keeps it selected', () => {
    const result = applyMarkdownFormat('make this loud', 5, 9, 'bold');
    expect(result.value).toBe('make **this** loud');
    expect(result.value.slice(result.selectionStart, result.selectionEnd)).toBe('this');
  });

  it('inserts a selected placeholder when nothing is selected', () => {
    const result = applyMarkdownFormat('', 0, 0, 'italic');
    expect(result.value).toBe('*italic text*');
    expect(result.value.slice(result.selectionStart, result.selectionEnd)).toBe('italic text');
  });

  it('makes a link and selects its url', () => {
    const result = applyMarkdownFormat('see docs', 4, 8, 'link');
    expect(result.value).toBe('see [docs](url)');
    expect(result.value.slice(result.selectionStart, result.selectionEnd)).toBe('url');
  });

  it('turns the current line into a heading', () => {
    expect(applyMarkdownFormat('intro\nTitle here\nmore', 9, 9, 'heading').value).toBe('intro\n## Title here\nmore');
  });

  it('prefixes every selected line for lists', () => {
    expect(applyMarkdownFormat('a\nb\nc', 0, 5, 'bulleted').value).toBe('- a\n- b\n- c');
    expect(applyMarkdownFormat('a\nb', 0, 3, 'numbered').value).toBe('1. a\n2. b');
  });
});

describe('excerptFromContent', () => {
  it('takes the first 200 characters of the text plus an ellipsis', () => {
    const excerpt = excerptFromContent(`# Heading\n\n${'word '.repeat(60)}`);
    expect(excerpt.startsWith('Heading word')).toBe(true);
    expect(excerpt.endsWith('...')).toBe(true);
    expect(excerpt.length).toBeLessThanOrEqual(203);
  });

  it('keeps a short text whole', () => {
    expect(excerptFromContent('Short **post**.')).toBe('Short post.');
  });
});

describe('parseTags', () => {
  it('splits on commas and drops blanks and repeats', () => {
    expect(parseTags(' coi, w9 ,, coi,')).toEqual(['coi', 'w9']);
  });
});
