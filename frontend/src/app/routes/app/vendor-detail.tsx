import { ArrowLeftIcon, ArrowUpTrayIcon, DocumentDuplicateIcon, PencilSquareIcon } from '@heroicons/react/20/solid';
import { useEffect, useRef, useState } from 'react';
import { useLocation, useParams } from 'react-router';
import { PageHeader } from '@/components/layouts/page-header';
import { Button, ButtonLink } from '@/components/ui/button';
import { LoadingBlock, QueryError } from '@/components/ui/query-state';
import { BulkUploadDialog } from '@/features/documents/components/bulk-upload-dialog';
import { DocumentHistory } from '@/features/documents/components/document-history';
import { UploadDocumentDialog } from '@/features/documents/components/upload-document-dialog';
import { VendorDocuments } from '@/features/documents/components/vendor-documents';
import { useVendor } from '@/features/vendors/api/get-vendor';
import { VendorNotFound } from '@/features/vendors/components/vendor-not-found';
import { VendorRequirements } from '@/features/vendors/components/vendor-requirements';
import { VendorSummaryCard } from '@/features/vendors/components/vendor-summary-card';
import { ERROR_CODES } from '@/lib/api-error';
import { useWritePermission } from '@/lib/permissions';

/** /vendors/{id} and /vendors/{id}/documents: the same screen. */
export function VendorDetailRoute() {
  const { id = '' } = useParams();
  const location = useLocation();
  const vendor = useVendor(id);
  const [uploading, setUploading] = useState(false);
  const [bulkUploading, setBulkUploading] = useState(false);
  const write = useWritePermission();
  const documentsRef = useRef<HTMLDivElement>(null);
  const wantsDocuments = location.pathname.endsWith('/documents');

  useEffect(() => {
    if (wantsDocuments && vendor.isSuccess) documentsRef.current?.scrollIntoView?.({ block: 'start' });
  }, [wantsDocuments, vendor.isSuccess]);

  if (vendor.isPending) return <LoadingBlock label="Loading vendor" />;
  if (vendor.isError) {
    return vendor.error.code === ERROR_CODES.notFound ? (
      <VendorNotFound />
    ) : (
      <QueryError error={vendor.error} onRetry={() => void vendor.refetch()} />
    );
  }
  const data = vendor.data;
  return (
    <>
      <div className="mb-4">
        <ButtonLink to="/vendors" variant="ghost" size="sm" className="-ml-3">
          <ArrowLeftIcon aria-hidden className="size-4" />
          Back to Vendors
        </ButtonLink>
      </div>
      <PageHeader
        title={data.name}
        action={
          <>
            <ButtonLink to={`/vendors/${data.id}/edit`} variant="outline" disabled={!write.allowed} title={write.reason}>
              <PencilSquareIcon aria-hidden className="size-4" />
              Edit Vendor
            </ButtonLink>
            <Button variant="outline" onClick={() => setBulkUploading(true)} disabled={!write.allowed} title={write.reason}>
              <DocumentDuplicateIcon aria-hidden className="size-4" />
              Bulk Upload
            </Button>
            <Button onClick={() => setUploading(true)} disabled={!write.allowed} title={write.reason}>
              <ArrowUpTrayIcon aria-hidden className="size-4" />
              Upload Document
            </Button>
          </>
        }
      />
      <div className="grid gap-6 2xl:grid-cols-3">
        <div className="min-w-0 space-y-6 2xl:col-span-1">
          <VendorSummaryCard vendor={data} />
          <VendorRequirements vendor={data} />
        </div>
        <div ref={documentsRef} className="min-w-0 scroll-mt-20 space-y-6 2xl:col-span-2">
          <VendorDocuments documents={data.documents ?? []} onUpload={() => setUploading(true)} />
          <DocumentHistory documents={data.documents ?? []} />
        </div>
      </div>
      <UploadDocumentDialog vendorId={data.id} open={uploading} onClose={() => setUploading(false)} />
      <BulkUploadDialog vendorId={data.id} open={bulkUploading} onClose={() => setBulkUploading(false)} />
    </>
  );
}

export default VendorDetailRoute;
