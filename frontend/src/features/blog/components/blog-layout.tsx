import type { ReactNode } from 'react';
import { LandingFooter } from '@/components/layouts/landing-footer';
import { BlogHeader } from './blog-header';

/** The public blog pages: no login needed, readable from phone width up. */
export function BlogLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <BlogHeader />
      <main className="mx-auto w-full max-w-5xl flex-1 px-4 py-8 sm:px-6 sm:py-12">{children}</main>
      <LandingFooter />
    </div>
  );
}
