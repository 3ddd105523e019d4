import { TABLE_PAGE_SIZE } from '@/config';
import { cn } from '@/lib/cn';
import { Button } from './button';

type PagerProps = {
  /** Every matching row. */
  total: number;
  /** 0-based. */
  page: number;
  onPageChange: (page: number) => void;
  pageSize?: number;
  /** The horizontal padding, matching the card it closes. */
  padding?: 'px-4' | 'px-5';
  className?: string;
};

/** 'Showing X to Y of Z entries' with Previous and Next; nothing when there is nothing to show. */
export function Pager({ total, page, onPageChange, pageSize = TABLE_PAGE_SIZE, padding = 'px-4', className }: PagerProps) {
  if (total <= 0) return null;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const start = page * pageSize;
  return (
    <div
      className={cn(
        'flex flex-col gap-3 border-t border-slate-200 py-3 sm:flex-row sm:items-center sm:justify-between',
        padding,
        className,
      )}
    >
      <p className="text-sm text-slate-600">
        Showing {start + 1} to {Math.min(start + pageSize, total)} of {total} entries
      </p>
      <div className="flex gap-2 print:hidden">
        <Button variant="outline" size="sm" onClick={() => onPageChange(page - 1)} disabled={page === 0}>
          Previous
        </Button>
        <Button variant="outline" size="sm" onClick={() => onPageChange(page + 1)} disabled={page >= pageCount - 1}>
          Next
        </Button>
      </div>
    </div>
  );
}
