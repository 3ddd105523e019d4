import { SearchInput } from '@/components/ui/search-input';
import { Select } from '@/components/ui/select';
import { VENDOR_STATUS_OPTIONS, type VendorStatusFilter } from '@/lib/domain/vendors';

type VendorFiltersProps = {
  search: string;
  onSearchChange: (value: string) => void;
  status: VendorStatusFilter;
  onStatusChange: (value: VendorStatusFilter) => void;
};

export function VendorFilters({ search, onSearchChange, status, onStatusChange }: VendorFiltersProps) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row">
      <SearchInput value={search} onChange={onSearchChange} placeholder="Search vendors..." className="flex-1" />
      <Select
        label="Filter by status"
        hideLabel
        value={status}
        onChange={onStatusChange}
        options={VENDOR_STATUS_OPTIONS}
        className="sm:w-52"
      />
    </div>
  );
}
