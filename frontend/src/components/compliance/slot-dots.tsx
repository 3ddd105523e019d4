import { cn } from '@/lib/cn';
import { SLOT_KEYS, SLOT_LABELS, statusLabel } from '@/lib/domain/documents';
import type { VendorSlot } from '@/types/api';
import { statusDotClass } from './status-badge';

/** Always the seven slots, in SLOT_KEYS order; a slot the server did not send counts as missing. */
export function normalizeSlots(slots: readonly VendorSlot[] | undefined): VendorSlot[] {
  return SLOT_KEYS.map((key) => {
    const found = slots?.find((s) => s.slot === key);
    return found ?? { slot: key, label: SLOT_LABELS[key], status: 'missing' };
  });
}

/** Seven status dots, one per document slot, each named for screen readers and on hover. */
export function SlotDots({ slots, className }: { slots: readonly VendorSlot[] | undefined; className?: string }) {
  return (
    <ul className={cn('flex items-center gap-1.5', className)} aria-label="Document slots">
      {normalizeSlots(slots).map((slot) => {
        const text = `${slot.label || SLOT_LABELS[slot.slot]}: ${statusLabel(slot.status)}`;
        return (
          <li key={slot.slot} title={text} data-slot={slot.slot} data-status={slot.status}>
            <span aria-hidden className={cn('block size-3 rounded-full ring-2 ring-white', statusDotClass(slot.status))} />
            <span className="sr-only">{text}</span>
          </li>
        );
      })}
    </ul>
  );
}

/** The colour key for the dots. */
export function SlotLegend() {
  const items = [
    ['current', 'Current'],
    ['expiring_soon', 'Expiring Soon'],
    ['expired', 'Expired'],
    ['missing', 'Missing'],
  ] as const;
  return (
    <ul className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-500" aria-label="Legend">
      {items.map(([status, label]) => (
        <li key={status} className="flex items-center gap-1.5">
          <span aria-hidden className={cn('size-2.5 rounded-full', statusDotClass(status))} />
          {label}
        </li>
      ))}
    </ul>
  );
}
