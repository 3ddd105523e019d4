import type { ComponentType, ReactNode, SVGProps } from 'react';

type EmptyStateProps = {
  icon?: ComponentType<SVGProps<SVGSVGElement>>;
  title: string;
  description?: ReactNode;
  action?: ReactNode;
  /** The title's heading level: one below the heading the empty state sits under (3 in a card). */
  headingLevel?: 1 | 2 | 3;
};

export function EmptyState({ icon: Icon, title, description, action, headingLevel = 3 }: EmptyStateProps) {
  const Heading = `h${headingLevel}` as const;
  return (
    <div className="flex flex-col items-center justify-center rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      {Icon ? (
        <div className="flex size-12 items-center justify-center rounded-full bg-slate-100 text-slate-500">
          <Icon aria-hidden className="size-6" />
        </div>
      ) : null}
      <Heading className="mt-4 text-base font-semibold text-slate-900">{title}</Heading>
      {description ? <p className="mt-1 max-w-sm text-sm text-slate-600">{description}</p> : null}
      {action ? <div className="mt-6">{action}</div> : null}
    </div>
  );
}
