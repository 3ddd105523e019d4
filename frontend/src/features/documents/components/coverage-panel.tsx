import { LockClosedIcon } from '@heroicons/react/20/solid';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { COVERAGE_SOURCE_LABELS } from '@/lib/domain/coverage';
import { VIEWER_REASON, useWritePermission } from '@/lib/permissions';
import type { VendorDocument } from '@/types/api';
import { AMOUNTS_HINT, CoverageForm } from './coverage-form';

/**
 * "Certificate coverage" beside a COI on its own page: the coverage form (the vendor page's
 * Coverage dialog's), so a person copies the certificate field by field while looking at it.
 * Says whether coverage is saved and who said it; a viewer reads it without a way to change it.
 */
export function CoveragePanel({ document }: { document: VendorDocument }) {
  const write = useWritePermission();
  const saved = document.coverage;
  const source = saved ? `Saved. Source: ${COVERAGE_SOURCE_LABELS[saved.source]}` : 'Nothing saved yet';

  return (
    <Card>
      <CardHeader title="Certificate coverage" description={<span data-testid="coverage-source">{source}</span>} />
      <CardBody className="space-y-4">
        {write.allowed ? (
          <>
            <p className="text-sm text-slate-600">What this certificate shows, field by field. {AMOUNTS_HINT}</p>
            <CoverageForm key={document.id} document={document} />
          </>
        ) : (
          <>
            <p className="flex gap-2 text-sm text-slate-600">
              <LockClosedIcon aria-hidden className="mt-0.5 size-4 shrink-0 text-slate-500" />
              {VIEWER_REASON}
            </p>
            {saved ? <CoverageForm key={document.id} document={document} readOnly /> : null}
          </>
        )}
      </CardBody>
    </Card>
  );
}
