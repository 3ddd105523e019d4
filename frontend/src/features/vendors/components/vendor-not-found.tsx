import { ArrowLeftIcon, BuildingStorefrontIcon } from '@heroicons/react/20/solid';
import { ButtonLink } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';

export function VendorNotFound({ editing = false }: { editing?: boolean }) {
  return (
    <EmptyState
      icon={BuildingStorefrontIcon}
      title="Vendor not found"
      headingLevel={1}
      description={
        editing
          ? "The vendor you're trying to edit doesn't exist or has been removed."
          : "The vendor you're looking for doesn't exist or has been removed."
      }
      action={
        <ButtonLink to="/vendors" variant="outline">
          <ArrowLeftIcon aria-hidden className="size-4" />
          Back to Vendors
        </ButtonLink>
      }
    />
  );
}
