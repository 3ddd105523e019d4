import { Disclosure, DisclosureButton, DisclosurePanel } from '@headlessui/react';
import { CheckCircleIcon, ChevronDownIcon, DocumentTextIcon } from '@heroicons/react/20/solid';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import type { PortalUploadResponse, RequestedDocument } from '@/types/api';
import { PortalReading } from './portal-reading';
import { PortalUploadForm } from './portal-upload-form';

type RequestedDocumentsProps = {
  companyKey: string;
  items: readonly RequestedDocument[];
  uploaded: ReadonlySet<string>;
  onUploaded: (item: RequestedDocument, response: PortalUploadResponse) => void;
  /** The reading token of each slot's last upload AI reads: what was read shows under its form. */
  readings?: Readonly<Record<string, string>>;
  onReadingSettled?: (slot: string) => void;
};

/** Step two: one accordion item per requested document type, each uploaded on its own. */
export function RequestedDocuments({
  companyKey,
  items,
  uploaded,
  onUploaded,
  readings = {},
  onReadingSettled = () => undefined,
}: RequestedDocumentsProps) {
  const isDone = (item: RequestedDocument) => item.uploaded || uploaded.has(item.slot);
  const firstPending = items.findIndex((item) => !isDone(item));
  return (
    <ul className="divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
      {items.map((item, index) => {
        const done = isDone(item);
        return (
          <li key={item.slot}>
            <Disclosure defaultOpen={index === firstPending}>
              {({ open }) => (
                <>
                  <DisclosureButton
                    className={cn(
                      'flex w-full items-center gap-3 px-4 py-4 text-left sm:px-5',
                      'data-[focus]:bg-slate-50 data-[hover]:bg-slate-50',
                      'data-[focus]:outline-2 data-[focus]:-outline-offset-2 data-[focus]:outline-blue-600',
                    )}
                  >
                    {done ? (
                      <CheckCircleIcon aria-hidden className="size-6 shrink-0 text-emerald-500" />
                    ) : (
                      <DocumentTextIcon aria-hidden className="size-6 shrink-0 text-slate-400" />
                    )}
                    <span className="min-w-0 flex-1 text-sm font-medium break-words text-slate-900 sm:text-base">
                      {item.label}
                    </span>
                    {done ? <Badge color="green">Uploaded</Badge> : <Badge color="gray">Needed</Badge>}
                    <ChevronDownIcon
                      aria-hidden
                      className={cn('size-5 shrink-0 text-slate-400 transition-transform', open && 'rotate-180')}
                    />
                  </DisclosureButton>
                  <DisclosurePanel unmount={false} className="border-t border-slate-100 bg-slate-50/60 px-4 py-5 sm:px-5">
                    <PortalUploadForm companyKey={companyKey} item={item} onUploaded={onUploaded} />
                    {readings[item.slot] ? (
                      <PortalReading
                        key={readings[item.slot]}
                        token={readings[item.slot]!}
                        onSettled={() => onReadingSettled(item.slot)}
                      />
                    ) : null}
                  </DisclosurePanel>
                </>
              )}
            </Disclosure>
          </li>
        );
      })}
    </ul>
  );
}
