import { CalendarIcon, ClockIcon } from '@heroicons/react/20/solid';
import { Badge } from '@/components/ui/badge';
import { formatDate } from '@/lib/format';
import type { PublicBlogPostSummary } from '@/types/api';

/** A post without a read time counts as 5 minutes (docs/product.md, "Blog"). */
const DEFAULT_READ_TIME = 5;

export function readTimeText(minutes: number | null | undefined): string {
  return `${minutes && minutes > 0 ? minutes : DEFAULT_READ_TIME} min read`;
}

/** Date and read time of a post. */
export function PostMeta({ post }: { post: Pick<PublicBlogPostSummary, 'publishedAt' | 'createdAt' | 'readTime'> }) {
  const date = post.publishedAt ?? post.createdAt;
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-500">
      <span className="inline-flex items-center gap-1.5">
        <CalendarIcon aria-hidden className="size-4" />
        <time dateTime={date}>{formatDate(date)}</time>
      </span>
      <span className="inline-flex items-center gap-1.5">
        <ClockIcon aria-hidden className="size-4" />
        {readTimeText(post.readTime)}
      </span>
    </div>
  );
}

export function PostTags({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul aria-label="Tags" className="flex flex-wrap gap-1.5">
      {tags.map((tag) => (
        <li key={tag}>
          <Badge color="blue">{tag}</Badge>
        </li>
      ))}
    </ul>
  );
}
