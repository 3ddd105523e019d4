import { cn } from '@/lib/cn';

/** The user's initial in a circle. */
export function Avatar({ name, className }: { name: string; className?: string }) {
  const initial = name.trim().charAt(0).toUpperCase() || '?';
  return (
    <span
      aria-hidden
      data-testid="user-avatar"
      className={cn(
        'flex size-9 shrink-0 items-center justify-center rounded-full bg-blue-600 text-sm font-semibold text-white',
        className,
      )}
    >
      {initial}
    </span>
  );
}

export function UserBadge({ name, email, showEmail = false }: { name: string; email: string; showEmail?: boolean }) {
  return (
    <div className="flex min-w-0 items-center gap-3">
      <Avatar name={name} />
      <div className="min-w-0">
        <p className="truncate text-sm font-medium text-slate-900">{name}</p>
        {showEmail ? <p className="truncate text-xs text-slate-500">{email}</p> : null}
      </div>
    </div>
  );
}
