import { BuildingOffice2Icon } from '@heroicons/react/20/solid';
import { useCallback, useState } from 'react';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { toast } from '@/components/ui/toast';
import type { PortalUploadResponse, PortalVendor, RequestedDocument } from '@/types/api';
import { allUploaded } from '../lib/portal-upload-rules';
import { RequestedDocuments } from './requested-documents';
import { UploadCompleteDialog } from './upload-complete-dialog';

type VendorDocumentsStepProps = {
  companyKey: string;
  vendor: PortalVendor;
  onChangeKey: () => void;
};

/** Step two: who is asking, what they ask for, and the completion dialog. */
export function VendorDocumentsStep({ companyKey, vendor, onChangeKey }: VendorDocumentsStepProps) {
  const [uploaded, setUploaded] = useState<ReadonlySet<string>>(() => new Set());
  const [dismissed, setDismissed] = useState(false);
  // Per slot, the token of its last upload AI reads, and those the vendor still has to look at:
  // the completion dialog waits for them, so that it does not cover what was read.
  const [readings, setReadings] = useState<Readonly<Record<string, string>>>({});
  const [unsettled, setUnsettled] = useState<ReadonlySet<string>>(() => new Set());
  const items = vendor.requiredDocuments;
  const doneCount = items.filter((item) => item.uploaded || uploaded.has(item.slot)).length;
  const complete = allUploaded(items, uploaded) && unsettled.size === 0;

  const onReadingSettled = useCallback((slot: string) => {
    setUnsettled((prev) => {
      if (!prev.has(slot)) return prev;
      const next = new Set(prev);
      next.delete(slot);
      return next;
    });
  }, []);

  function onUploaded(item: RequestedDocument, response: PortalUploadResponse) {
    setUploaded((prev) => new Set(prev).add(item.slot));
    const token = response.readingToken;
    if (token) {
      setReadings((prev) => ({ ...prev, [item.slot]: token }));
      setUnsettled((prev) => new Set(prev).add(item.slot));
    }
    setDismissed(false);
    toast({ title: 'Document uploaded', description: `${item.label} was sent to ${vendor.clientName}.`, variant: 'success' });
  }

  return (
    <div className="space-y-5">
      <section aria-label="Company" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">
        <div className="flex items-start gap-3">
          <div className="flex size-10 shrink-0 items-center justify-center rounded-full bg-blue-50 text-blue-600">
            <BuildingOffice2Icon aria-hidden className="size-5" />
          </div>
          <div className="min-w-0 flex-1">
            <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">Uploading documents for</p>
            <h1 className="text-lg font-bold break-words text-slate-900 sm:text-xl" data-testid="portal-vendor-name">
              {vendor.companyName}
            </h1>
            <p className="mt-1 text-sm text-slate-600">
              Requested by{' '}
              <span className="font-medium text-slate-900" data-testid="portal-client-name">
                {vendor.clientName}
              </span>
            </p>
          </div>
        </div>
        <div className="mt-4 flex flex-wrap items-center justify-between gap-2 border-t border-slate-100 pt-4">
          <p className="text-sm text-slate-600" aria-live="polite">
            {doneCount} of {items.length} uploaded
          </p>
          <Button variant="ghost" size="sm" className="-mr-2" onClick={onChangeKey}>
            Use a different key
          </Button>
        </div>
      </section>
      {vendor.corrections.length > 0 ? (
        <section
          aria-labelledby="portal-corrections"
          className="rounded-2xl border border-amber-200 bg-amber-50 p-5 sm:p-6"
          data-testid="portal-corrections"
        >
          <h2 id="portal-corrections" className="text-base font-semibold text-amber-900">
            Corrections requested
          </h2>
          <p className="mt-1 text-sm text-amber-900">
            {vendor.clientName} checked your certificates of insurance against what its contract asks you to carry. Please upload
            a corrected certificate:
          </p>
          <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-amber-950">
            {vendor.corrections.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {items.length === 0 ? (
        <EmptyState
          headingLevel={2}
          title="Nothing to upload"
          description={`${vendor.clientName} has not asked for any documents.`}
        />
      ) : (
        <RequestedDocuments
          companyKey={companyKey}
          items={items}
          uploaded={uploaded}
          onUploaded={onUploaded}
          readings={readings}
          onReadingSettled={onReadingSettled}
        />
      )}
      <UploadCompleteDialog open={complete && !dismissed} onClose={() => setDismissed(true)} clientName={vendor.clientName} />
    </div>
  );
}
