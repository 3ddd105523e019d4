import { Badge } from '@/components/ui/badge';
import type { Vendor } from '@/types/api';

/** 'Gaps' beside a vendor whose certificates fall short of its requirement set (a gap not waived). */
export function GapsBadge({ vendor }: { vendor: Pick<Vendor, 'meetsRequirements' | 'gaps'> }) {
  if (vendor.meetsRequirements) return null;
  const counting = vendor.gaps.filter((gap) => !gap.waived).length;
  return (
    <Badge color="yellow" className="ml-2 align-middle">
      {counting === 1 ? '1 gap' : `${counting} gaps`}
    </Badge>
  );
}
