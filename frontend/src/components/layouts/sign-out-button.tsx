import { ArrowRightStartOnRectangleIcon } from '@heroicons/react/24/outline';

export function SignOutButton({ onClick }: { onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="flex w-full items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900"
    >
      <ArrowRightStartOnRectangleIcon aria-hidden className="size-5" />
      Sign out
    </button>
  );
}
