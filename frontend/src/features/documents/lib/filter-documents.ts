import { COI_TYPE_LABELS, coiTypeLabel, documentTypeLabel } from '@/lib/domain/documents';
import type { DocumentStatus, VendorDocument } from '@/types/api';

export type DocumentStatusFilter = 'all' | DocumentStatus;

/** Suggestions of the Documents search: the document type codes, then the COI insurance types. */
export const DOCUMENT_SEARCH_SUGGESTIONS = [
  'coi',
  'w9',
  'sales_tax',
  'vendor_agreement',
  'other',
  ...Object.values(COI_TYPE_LABELS),
];

export const DOCUMENT_STATUS_OPTIONS: { value: DocumentStatusFilter; label: string }[] = [
  { value: 'all', label: 'All Statuses' },
  { value: 'current', label: 'Current' },
  { value: 'expiring_soon', label: 'Expiring Soon' },
  { value: 'expired', label: 'Expired' },
  { value: 'missing', label: 'Missing' },
];

/** Searches by document type (key or label), COI type, file name and vendor; then filters by status. */
export function filterDocuments(
  documents: readonly VendorDocument[],
  search: string,
  status: DocumentStatusFilter,
): VendorDocument[] {
  const needle = search.trim().toLowerCase();
  return documents.filter((doc) => {
    if (status !== 'all' && doc.status !== status) return false;
    if (!needle) return true;
    const haystack = [
      doc.documentType,
      documentTypeLabel(doc.documentType),
      doc.coiType ?? '',
      coiTypeLabel(doc) ?? '',
      doc.fileName,
      doc.vendor ?? '',
    ];
    return haystack.some((field) => field.toLowerCase().includes(needle));
  });
}
