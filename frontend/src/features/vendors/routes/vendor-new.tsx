import { ArrowLeftIcon } from '@heroicons/react/20/solid';
import { PageHeader } from '@/components/layouts/page-header';
import { LimitBanner } from '@/components/plan/limit-banner';
import { ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ReadOnlyNotice } from '@/components/ui/read-only-notice';
import { usePaymentStatus } from '@/lib/api/get-payment-status';
import { useWritePermission } from '@/lib/permissions';
import { CreateVendorForm } from '../components/create-vendor-form';

export function VendorNewRoute() {
  const paymentStatus = usePaymentStatus();
  const write = useWritePermission();
  return (
    <>
      <div className="mb-4">
        <ButtonLink to="/vendors" variant="ghost" size="sm" className="-ml-3">
          <ArrowLeftIcon aria-hidden className="size-4" />
          Back to Vendors
        </ButtonLink>
      </div>
      <PageHeader title="Add New Vendor" description="Add a vendor and choose which documents to collect from them" />
      <LimitBanner status={paymentStatus.data} />
      {write.allowed ? (
        <Card className="p-5 sm:p-6">
          <CreateVendorForm />
        </Card>
      ) : (
        <ReadOnlyNotice />
      )}
    </>
  );
}

export default VendorNewRoute;
