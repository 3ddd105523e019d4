import { ArrowLeftIcon } from '@heroicons/react/20/solid';
import { useParams } from 'react-router';
import { PageHeader } from '@/components/layouts/page-header';
import { ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { ReadOnlyNotice } from '@/components/ui/read-only-notice';
import { useVendor } from '../api/get-vendor';
import { EditVendorForm } from '../components/edit-vendor-form';
import { VendorNotFound } from '../components/vendor-not-found';
import { ERROR_CODES } from '@/lib/api-error';
import { useWritePermission } from '@/lib/permissions';

export function VendorEditRoute() {
  const { id = '' } = useParams();
  const vendor = useVendor(id);
  const write = useWritePermission();
  if (vendor.isPending) return <LoadingBlock label="Loading vendor" />;
  if (vendor.isError) {
    return vendor.error.code === ERROR_CODES.notFound ? (
      <VendorNotFound editing />
    ) : (
      <QueryError error={vendor.error} onRetry={() => void vendor.refetch()} />
    );
  }
  return (
    <>
      <div className="mb-4">
        <ButtonLink to={`/vendors/${id}`} variant="ghost" size="sm" className="-ml-3">
          <ArrowLeftIcon aria-hidden className="size-4" />
          Back to Vendor
        </ButtonLink>
      </div>
      <PageHeader title="Edit Vendor" description={vendor.data.name} />
      {write.allowed ? (
        <Card className="p-5 sm:p-6">
          <EditVendorForm key={vendor.data.updatedAt} vendor={vendor.data} />
        </Card>
      ) : (
        <ReadOnlyNotice />
      )}
    </>
  );
}

export default VendorEditRoute;
