import { describe, expect, it } from 'vitest';
import { renderWithProviders, screen } from '@/testing/test-utils';
import { BlogHeader } from './blog-header';

describe('BlogHeader', () => {
  it('hides Log In below the sm breakpoint, so it cannot overlap the Blog link on a phone', () => {
    renderWithProviders(<BlogHeader />, '/blog');
    const classes = screen.getByRole('link', { name: 'Log In' }).className.split(/\s+/);
    expect(classes).toContain('hidden');
    expect(classes).toContain('sm:inline-flex');
    // The button's own display class must be gone, or the stylesheet's order decides.
    expect(classes).not.toContain('inline-flex');
    expect(screen.getByRole('link', { name: 'Register' })).toBeInTheDocument();
  });
});
