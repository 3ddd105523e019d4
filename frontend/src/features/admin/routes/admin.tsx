import { PlusIcon } from '@heroicons/react/20/solid';
import { PageHeader } from '@/components/layouts/page-header';
import { ButtonLink } from '@/components/ui/button';
import { useBlogStats } from '../api/get-blog-stats';
import { AdminAccessDenied, AdminOnly, isForbidden } from '../components/admin-only';
import { BlogPostList } from '../components/blog-post-list';
import { BlogStatsCards } from '../components/blog-stats-cards';

export function AdminRoute() {
  return (
    <AdminOnly>
      <AdminArea />
    </AdminOnly>
  );
}

function AdminArea() {
  const stats = useBlogStats();
  if (isForbidden(stats.error)) return <AdminAccessDenied />;
  return (
    <>
      <PageHeader
        title="Admin"
        description="Manage the blog's posts"
        action={
          <ButtonLink to="/admin/blog/new">
            <PlusIcon aria-hidden className="size-5" />
            New Post
          </ButtonLink>
        }
      />
      <BlogStatsCards stats={stats.data} />
      <BlogPostList />
    </>
  );
}

export default AdminRoute;
