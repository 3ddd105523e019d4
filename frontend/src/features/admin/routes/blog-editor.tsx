import { ArrowLeftIcon } from '@heroicons/react/20/solid';
import { useParams } from 'react-router';
import { PageHeader } from '@/components/layouts/page-header';
import { ButtonLink } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { ERROR_CODES, isApiError } from '@/lib/api-error';
import { useAdminBlogPost } from '../api/get-admin-blog-post';
import { AdminAccessDenied, AdminOnly, isForbidden } from '../components/admin-only';
import { BlogPostForm } from '../components/blog-post-form';

const backLink = (
  <ButtonLink to="/admin" variant="outline">
    <ArrowLeftIcon aria-hidden className="size-5" />
    Back to Admin
  </ButtonLink>
);

/** /admin/blog/new and /admin/blog/edit/{slug}. */
export function BlogEditorRoute() {
  const { slug } = useParams();
  return <AdminOnly>{slug ? <EditBlogPost slug={slug} /> : <NewBlogPost />}</AdminOnly>;
}

function NewBlogPost() {
  return (
    <>
      <PageHeader
        title="New Post"
        description="Write in Markdown; Preview shows the page as readers will see it."
        action={backLink}
      />
      <BlogPostForm />
    </>
  );
}

function EditBlogPost({ slug }: { slug: string }) {
  const post = useAdminBlogPost(slug);
  if (isForbidden(post.error)) return <AdminAccessDenied />;
  let body;
  if (post.isPending) body = <LoadingBlock label="Loading blog post" />;
  else if (post.isError) {
    body =
      isApiError(post.error) && post.error.code === ERROR_CODES.notFound ? (
        <EmptyState title="Blog Post Not Found" action={backLink} />
      ) : (
        <QueryError error={post.error} onRetry={() => void post.refetch()} />
      );
  } else body = <BlogPostForm key={post.data.id} post={post.data} />;
  return (
    <>
      <PageHeader title="Edit Post" description={post.data?.title} action={backLink} />
      {body}
    </>
  );
}

export default BlogEditorRoute;
