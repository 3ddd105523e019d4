import { cn } from '@/lib/cn';

const rows = [
  { vendor: 'Brightline Electrical', doc: 'Certificate of Insurance', status: 'Current', tone: 'green' },
  { vendor: 'Evergreen Landscaping', doc: 'W-9 Form', status: 'Expiring Soon', tone: 'yellow' },
  { vendor: 'Apex Plumbing Co.', doc: 'Sales Tax Certificate', status: 'Expired', tone: 'red' },
  { vendor: 'Northwind Security', doc: 'Vendor Agreement', status: 'Current', tone: 'green' },
] as const;

const tones = {
  green: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  yellow: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  red: 'bg-red-50 text-red-700 ring-red-600/20',
} as const;

/** A decorative, static picture of the dashboard (no data, hidden from screen readers). */
export function HeroPreview() {
  return (
    <div aria-hidden className="relative">
      <div className="absolute -inset-4 -z-10 rounded-3xl bg-gradient-to-tr from-blue-200/50 to-violet-200/40 blur-2xl" />
      <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-xl">
        <div className="flex items-center gap-1.5 border-b border-slate-100 px-4 py-3">
          <span className="size-2.5 rounded-full bg-slate-200" />
          <span className="size-2.5 rounded-full bg-slate-200" />
          <span className="size-2.5 rounded-full bg-slate-200" />
        </div>
        <div className="grid grid-cols-3 gap-3 p-4">
          {[
            ['Total Vendors', '12', 'text-blue-600'],
            ['Compliant', '9', 'text-emerald-600'],
            ['Needs Attention', '3', 'text-amber-600'],
          ].map(([label, value, color]) => (
            <div key={label} className="rounded-lg border border-slate-100 bg-slate-50 p-3">
              <p className="text-[11px] text-slate-500">{label}</p>
              <p className={cn('text-xl font-bold', color)}>{value}</p>
            </div>
          ))}
        </div>
        <ul className="divide-y divide-slate-100 px-4 pb-4">
          {rows.map((row) => (
            <li key={row.vendor} className="flex items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="truncate text-sm font-medium text-slate-900">{row.vendor}</p>
                <p className="truncate text-xs text-slate-500">{row.doc}</p>
              </div>
              <span
                className={cn(
                  'rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset',
                  tones[row.tone],
                )}
              >
                {row.status}
              </span>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
