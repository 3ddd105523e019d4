import { cn } from '@/lib/cn';

/** Readable typography (@tailwindcss/typography) for HTML the server rendered from Markdown. */
export const articleClasses =
  'prose prose-slate max-w-none break-words prose-a:text-blue-700 prose-img:rounded-lg prose-pre:overflow-x-auto';

type ArticleHtmlProps = { html: string; className?: string; 'data-testid'?: string };

/**
 * Shows the blog's HTML. Only for HTML the server produced: it renders Markdown and sanitises the
 * result (docs/decisions.md, 18), so neither an editor nor an AI answer can inject script.
 */
export function ArticleHtml({ html, className, ...rest }: ArticleHtmlProps) {
  return <div {...rest} className={cn(articleClasses, className)} dangerouslySetInnerHTML={{ __html: html }} />;
}
