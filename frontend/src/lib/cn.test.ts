import { describe, expect, it } from 'vitest';
import { cn } from './cn';

describe('cn', () => {
  it('skips falsy values', () => {
    expect(cn('px-2', false, null, undefined, 'py-1')).toBe('px-2 py-1');
  });

  it('lets a later display class win over a component’s own', () => {
    expect(cn('inline-flex items-center', 'hidden sm:inline-flex')).toBe('items-center hidden sm:inline-flex');
  });

  it('keeps classes of other breakpoints and states', () => {
    expect(cn('px-4 sm:px-6 hover:bg-slate-50', 'px-2')).toBe('sm:px-6 hover:bg-slate-50 px-2');
  });
});
