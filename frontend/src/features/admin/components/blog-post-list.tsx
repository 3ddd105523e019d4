import { DocumentTextIcon, EyeIcon } from '@heroicons/react/24/outline';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button, ButtonLink } from '@/components/ui/button';
import { Card, CardHeader } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Pager } from '@/components/ui/pager';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { toast } from '@/components/ui/toast';
import { ADMIN_POST_PAGE_SIZE } from '@/config';
import { formatDate } from '@/lib/format';
import type { BlogPost } from '@/types/api';
import { useAdminBlogPosts } from '../api/get-admin-blog-posts';
import { usePublishBlogPost } from '../api/publish-blog-post';
import { DeleteBlogPostDialog } from './delete-blog-post-dialog';

/** The post management list: 5 a page, drafts and published, newest first. */
export function BlogPostList() {
  const [page, setPage] = useState(0);
  const posts = useAdminBlogPosts(page);
  const [deleting, setDeleting] = useState<BlogPost | null>(null);
  const total = posts.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / ADMIN_POST_PAGE_SIZE));
  // A delete can empty the last page: fall back to the last one that exists.
  if (posts.data && !posts.isPlaceholderData && page > 0 && page >= pageCount) setPage(pageCount - 1);

  let body;
  if (posts.isPending) body = <LoadingBlock label="Loading blog posts" />;
  else if (posts.isError) body = <QueryError error={posts.error} onRetry={() => void posts.refetch()} />;
  else if (posts.data.items.length === 0) {
    body = (
      <div className="p-5">
        <EmptyState icon={DocumentTextIcon} title="No blog posts yet" description="Write the first one with New Post." />
      </div>
    );
  } else {
    body = (
      <ul className="divide-y divide-slate-100" aria-label="Blog posts">
        {posts.data.items.map((post) => (
          <BlogPostRow key={post.id} post={post} onDelete={() => setDeleting(post)} />
        ))}
      </ul>
    );
  }

  return (
    <Card>
      <CardHeader title="Blog Posts" description="Publish, edit and delete posts." />
      {body}
      <Pager total={total} page={page} onPageChange={setPage} pageSize={ADMIN_POST_PAGE_SIZE} padding="px-5" />
      <DeleteBlogPostDialog post={deleting} onClose={() => setDeleting(null)} />
    </Card>
  );
}

function BlogPostRow({ post, onDelete }: { post: BlogPost; onDelete: () => void }) {
  const publish = usePublishBlogPost();
  const isDraft = post.status === 'draft';
  return (
    <li className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:justify-between" aria-label={post.title}>
      <div className="min-w-0">
        <p className="truncate font-medium text-slate-900">{post.title}</p>
        <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-500">
          <Badge color={isDraft ? 'yellow' : 'green'}>{isDraft ? 'Draft' : 'Published'}</Badge>
          <span>{formatDate(post.publishedAt ?? post.createdAt)}</span>
          <span className="inline-flex items-center gap-1">
            <EyeIcon aria-hidden className="size-4" />
            {post.views.toLocaleString('en-US')} views
          </span>
        </div>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        {isDraft ? (
          <Button
            size="sm"
            disabled={publish.isPending}
            onClick={() =>
              publish.mutate(post.id, {
                onSuccess: () =>
                  toast({ title: 'Blog post published', description: `"${post.title}" is live.`, variant: 'success' }),
                onError: (error) => toast({ title: 'Failed to publish blog post', description: error.message, variant: 'error' }),
              })
            }
          >
            {publish.isPending ? 'Publishing...' : 'Publish'}
          </Button>
        ) : null}
        <ButtonLink to={`/admin/blog/edit/${encodeURIComponent(post.slug)}`} variant="outline" size="sm">
          Edit
        </ButtonLink>
        <Button variant="outline" size="sm" className="text-red-600" onClick={onDelete}>
          Delete
        </Button>
      </div>
    </li>
  );
}
