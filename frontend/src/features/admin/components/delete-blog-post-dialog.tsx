import { ConfirmDialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import type { BlogPost } from '@/types/api';
import { useDeleteBlogPost } from '../api/delete-blog-post';

type DeleteBlogPostDialogProps = {
  post: Pick<BlogPost, 'id' | 'title'> | null;
  onClose: () => void;
};

/** 'Are you sure?' before a post goes; the toast 'Failed to delete blog post' on failure. */
export function DeleteBlogPostDialog({ post, onClose }: DeleteBlogPostDialogProps) {
  const deletion = useDeleteBlogPost();
  return (
    <ConfirmDialog
      open={post !== null}
      onClose={onClose}
      pending={deletion.isPending}
      title="Are you sure?"
      description="This action cannot be undone. This will permanently delete the blog post."
      onConfirm={() => {
        if (!post) return;
        deletion.mutate(post.id, {
          onSuccess: () => {
            toast({ title: 'Blog post deleted', description: `"${post.title}" has been deleted.`, variant: 'success' });
            onClose();
          },
          onError: (error) => {
            toast({ title: 'Failed to delete blog post', description: error.message, variant: 'error' });
            onClose();
          },
        });
      }}
    />
  );
}
