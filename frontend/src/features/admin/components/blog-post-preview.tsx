import { ArticleHtml } from '@/components/ui/article-html';
import { LoadingBlock } from '@/components/ui/query-state';
import type { ApiError } from '@/lib/api-error';

type BlogPostPreviewProps = {
  html: string | undefined;
  pending: boolean;
  error: ApiError | null;
  empty: boolean;
};

/** The preview tab: the HTML exactly as the server renders it for the public page. */
export function BlogPostPreview({ html, pending, error, empty }: BlogPostPreviewProps) {
  if (empty) return <p className="p-5 text-sm text-slate-500">Nothing to preview yet.</p>;
  if (pending) return <LoadingBlock label="Rendering preview" />;
  if (error) {
    return (
      <p role="alert" className="m-5 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
        The preview could not be rendered: {error.message}
      </p>
    );
  }
  return <ArticleHtml data-testid="blog-preview" className="p-5" html={html ?? ''} />;
}
