import { NewspaperIcon } from '@heroicons/react/24/outline';
import { useRef } from 'react';
import { Link, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { BLOG_PAGE_SIZE } from '@/config';
import { loadFirst } from '@/lib/load-first';
import { getBlogPostsQueryOptions, useBlogPosts } from '../api/get-blog-posts';
import { BlogLayout } from '../components/blog-layout';
import { PostMeta, PostTags } from '../components/post-meta';
import { useDocumentTitle } from '../hooks/use-document-title';

/** The page number in ?page= (1-based), 1 when missing or unreadable. */
function readPage(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isInteger(page) && page > 1 ? page : 1;
}

/**
 * The posts of the page before it first shows: until then the page the server sent (the list for
 * readers without JavaScript) stays, and the footer is not pushed down when the list comes.
 */
export function loader({ request }: LoaderFunctionArgs) {
  return loadFirst(getBlogPostsQueryOptions(readPage(new URL(request.url).searchParams) - 1));
}

export function BlogListRoute() {
  const [params, setParams] = useSearchParams();
  const top = useRef<HTMLDivElement>(null);
  const page = readPage(params);
  const posts = useBlogPosts(page - 1);
  useDocumentTitle('Blog');
  const pageCount = Math.max(1, Math.ceil((posts.data?.total ?? 0) / BLOG_PAGE_SIZE));
  const goTo = (next: number) => {
    setParams(next > 1 ? { page: String(next) } : {});
    top.current?.scrollIntoView?.({ block: 'start' });
  };

  let body;
  if (posts.isPending) body = <LoadingBlock label="Loading blog posts" />;
  else if (posts.isError) body = <QueryError error={posts.error} onRetry={() => void posts.refetch()} />;
  else if (posts.data.items.length === 0) body = <EmptyState icon={NewspaperIcon} title="No blog posts yet" headingLevel={2} />;
  else {
    body = (
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" aria-label="Blog posts">
        {posts.data.items.map((post) => (
          <li key={post.id}>
            <article className="flex h-full flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition-shadow hover:shadow-md">
              <h2 className="text-lg leading-snug font-semibold text-slate-900">
                <Link to={`/blog/${encodeURIComponent(post.slug)}`} className="hover:text-blue-700">
                  {post.title}
                </Link>
              </h2>
              <PostMeta post={post} />
              <p className="line-clamp-4 flex-1 text-sm text-slate-600">{post.excerpt}</p>
              <PostTags tags={post.tags} />
            </article>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <BlogLayout>
      <div ref={top} className="mb-8 scroll-mt-20">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Blog</h1>
        <p className="mt-2 text-slate-600">Vendor compliance, insurance certificates and document tracking, explained.</p>
      </div>
      {body}
      {pageCount > 1 ? (
        <nav aria-label="Pagination" className="mt-10 flex items-center justify-between gap-3">
          <Button variant="outline" onClick={() => goTo(page - 1)} disabled={page <= 1}>
            Previous
          </Button>
          <p className="text-sm text-slate-600">
            Page {Math.min(page, pageCount)} of {pageCount}
          </p>
          <Button variant="outline" onClick={() => goTo(page + 1)} disabled={page >= pageCount}>
            Next
          </Button>
        </nav>
      ) : null}
    </BlogLayout>
  );
}

export default BlogListRoute;
