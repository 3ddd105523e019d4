import {
  DocumentTextIcon,
  EnvelopeIcon,
  MapPinIcon,
  PencilSquareIcon,
  PhoneIcon,
  WrenchScrewdriverIcon,
} from '@heroicons/react/20/solid';
import type { ComponentType, ReactNode, SVGProps } from 'react';
import { normalizeSlots } from '@/components/compliance/slot-dots';
import { StatusBadge, statusDotClass } from '@/components/compliance/status-badge';
import { ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { statusLabel } from '@/lib/domain/documents';
import { formatAddress } from '@/lib/domain/vendors';
import { formatServiceType } from '@/lib/format';
import type { Vendor } from '@/types/api';
import { useWritePermission } from '@/lib/permissions';
import { CompanyKeyField } from './company-key-field';

function Row({
  icon: Icon,
  label,
  children,
}: {
  icon: ComponentType<SVGProps<SVGSVGElement>>;
  label: string;
  children: ReactNode;
}) {
  return (
    <div className="flex gap-3">
      <dt className="mt-0.5 shrink-0">
        <Icon aria-hidden className="size-4 text-slate-400" />
        <span className="sr-only">{label}</span>
      </dt>
      <dd className="min-w-0 text-sm break-words text-slate-700">{children}</dd>
    </div>
  );
}

/** Name, status, contact details, notes and the state of each document slot. */
export function VendorSummaryCard({ vendor }: { vendor: Vendor }) {
  const address = formatAddress(vendor);
  const write = useWritePermission();
  const required = new Set(vendor.requiredDocuments ?? []);
  return (
    <Card className="p-5">
      <div className="flex items-start justify-between gap-3">
        <h2 className="text-lg font-semibold break-words text-slate-900">{vendor.name}</h2>
        <StatusBadge status={vendor.documentStatus} />
      </div>
      <div className="grid gap-x-8 md:grid-cols-2 2xl:grid-cols-1">
        <div>
          <dl className="mt-4 space-y-3">
            <Row icon={WrenchScrewdriverIcon} label="Service type">
              {formatServiceType(vendor.serviceType)}
            </Row>
            <Row icon={EnvelopeIcon} label="Email">
              <a href={`mailto:${vendor.email}`} className="text-blue-600 hover:text-blue-700">
                {vendor.email}
              </a>
            </Row>
            {vendor.phone ? (
              <Row icon={PhoneIcon} label="Phone">
                {vendor.phone}
              </Row>
            ) : null}
            {address ? (
              <Row icon={MapPinIcon} label="Address">
                {address}
              </Row>
            ) : null}
          </dl>
          {vendor.notes ? (
            <div className="mt-4 rounded-lg bg-slate-50 p-3">
              <p className="text-xs font-medium text-slate-500">Notes</p>
              <p className="mt-1 text-sm whitespace-pre-line text-slate-700">{vendor.notes}</p>
            </div>
          ) : null}
          <div className="mt-5 border-t border-slate-100 pt-4">
            <CompanyKeyField label="Vendor ID" value={vendor.id} hint="The vendor enters this key on the upload portal." />
          </div>
        </div>
        <div className="mt-5">
          <h3 className="text-sm font-semibold text-slate-900">Document Status</h3>
          <ul className="mt-2 space-y-1.5" aria-label="Document status">
            {normalizeSlots(vendor.slots).map((slot) => (
              <li key={slot.slot} className="flex items-center justify-between gap-3 text-sm">
                <span className="flex items-center gap-2 text-slate-700">
                  <span aria-hidden className={cn('size-2.5 rounded-full', statusDotClass(slot.status))} />
                  {slot.label}
                  {required.has(slot.slot) ? null : <span className="text-xs text-slate-500">(not requested)</span>}
                </span>
                <span className="text-xs text-slate-500">{statusLabel(slot.status)}</span>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="mt-5 grid grid-cols-2 gap-2 md:max-w-sm 2xl:max-w-none">
        <ButtonLink to={`/vendors/${vendor.id}/edit`} variant="outline" disabled={!write.allowed} title={write.reason}>
          <PencilSquareIcon aria-hidden className="size-4" />
          Edit
        </ButtonLink>
        <ButtonLink to={`/vendors/${vendor.id}/documents`} variant="outline">
          <DocumentTextIcon aria-hidden className="size-4" />
          Documents
        </ButtonLink>
      </div>
    </Card>
  );
}
