import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { SlotDots } from '@/components/compliance/slot-dots';
import { GapsBadge } from '@/components/compliance/gaps-badge';
import { StatusBadge } from '@/components/compliance/status-badge';
import { formatDate, formatServiceType } from '@/lib/format';
import type { Vendor } from '@/types/api';

/** A phone's row of a vendor table: name, status, the seven slot dots, and an action. */
export function VendorCard({ vendor, action }: { vendor: Vendor; action?: ReactNode }) {
  return (
    <div className="space-y-2">
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <Link to={`/vendors/${vendor.id}`} className="font-medium break-words text-slate-900 hover:text-blue-600">
            {vendor.name}
          </Link>
          <GapsBadge vendor={vendor} />
          <p className="text-xs text-slate-500">{formatServiceType(vendor.serviceType)}</p>
        </div>
        <div className="flex shrink-0 items-center gap-1">
          <StatusBadge status={vendor.documentStatus} />
          {action}
        </div>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <SlotDots slots={vendor.slots} />
        <p className="text-xs text-slate-500">Updated {formatDate(vendor.updatedAt)}</p>
      </div>
    </div>
  );
}
