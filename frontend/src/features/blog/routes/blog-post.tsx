import { ArrowLeftIcon } from '@heroicons/react/20/solid';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useLocation, useNavigate, useParams, type LoaderFunctionArgs } from 'react-router';
import { ArticleHtml } from '@/components/ui/article-html';
import { ButtonLink } from '@/components/ui/button';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { ERROR_CODES, isApiError } from '@/lib/api-error';
import { loadFirst } from '@/lib/load-first';
import { getBlogPostQueryOptions, useBlogPost } from '../api/get-blog-post';
import { BlogCallToAction } from '../components/blog-cta';
import { BlogLayout } from '../components/blog-layout';
import { PostMeta, PostTags } from '../components/post-meta';
import { useDocumentTitle } from '../hooks/use-document-title';

/** The post before the page first shows: the article the server sent stays until then. */
export function loader({ params }: LoaderFunctionArgs) {
  return loadFirst(getBlogPostQueryOptions(params.slug ?? ''));
}

/** /blog/{slug} and /view-blog-post/{slug}. */
export function BlogPostRoute() {
  const { slug = '' } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const post = useBlogPost(slug);
  const current = post.data?.slug;
  const data = post.data;
  useDocumentTitle(post.data ? (post.data.metaTitle ?? post.data.title) : undefined);

  // An old slug answers the post: move the address to its current slug (the post shown stays put).
  useEffect(() => {
    if (!data || !current || current === slug) return;
    client.setQueryData(getBlogPostQueryOptions(current).queryKey, data);
    const base = pathname.startsWith('/view-blog-post/') ? '/view-blog-post' : '/blog';
    void navigate(`${base}/${encodeURIComponent(current)}`, { replace: true });
  }, [data, current, slug, pathname, navigate, client]);

  const back = (
    <Link to="/blog" className="inline-flex items-center gap-1 text-sm font-medium text-slate-600 hover:text-slate-900">
      <ArrowLeftIcon aria-hidden className="size-4" />
      Back to Blog
    </Link>
  );

  let body;
  if (post.isPending) body = <LoadingBlock label="Loading blog post" />;
  else if (post.isError) {
    body =
      isApiError(post.error) && post.error.code === ERROR_CODES.notFound ? (
        <div className="py-16 text-center">
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Blog Post Not Found</h1>
          <p className="mt-2 text-slate-600">The post you are looking for does not exist or is no longer published.</p>
          <ButtonLink to="/blog" variant="outline" className="mt-6">
            Back to Blog
          </ButtonLink>
        </div>
      ) : (
        <QueryError error={post.error} onRetry={() => void post.refetch()} />
      );
  } else {
    body = (
      <>
        <article className="mx-auto max-w-3xl">
          <header className="mb-8 space-y-4">
            {back}
            <h1 className="text-3xl leading-tight font-bold tracking-tight text-balance text-slate-900 sm:text-4xl">
              {post.data.title}
            </h1>
            <PostMeta post={post.data} />
            <PostTags tags={post.data.tags} />
          </header>
          <ArticleHtml data-testid="blog-post-body" className="prose-base sm:prose-lg" html={post.data.html} />
        </article>
        <div className="mx-auto mt-12 max-w-3xl">
          <BlogCallToAction />
        </div>
      </>
    );
  }

  return <BlogLayout>{body}</BlogLayout>;
}

export default BlogPostRoute;
