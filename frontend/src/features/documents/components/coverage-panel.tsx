import { LockClosedIcon } from '@heroicons/react/20/solid';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { toast } from '@/components/ui/toast';
import { getPublicConfigQueryOptions } from '@/lib/api/get-public-config';
import { COVERAGE_SOURCE_LABELS } from '@/lib/domain/coverage';
import { VIEWER_REASON, useWritePermission } from '@/lib/permissions';
import type { VendorDocument } from '@/types/api';
import { isReading, useExtraction } from '../api/extraction';
import { getDocumentQueryOptions } from '../api/get-document';
import { AI_OFF, AiReading } from './ai-reading';
import { AMOUNTS_HINT, CoverageForm } from './coverage-form';

/**
 * Follows the certificate's reading by AI (when the server reads certificates): read again every
 * 2 s while under way; its end, seen here, is told and the document read again.
 */
function useReading(document: VendorDocument, aiOn: boolean) {
  const client = useQueryClient();
  const reading = useExtraction(document.id, aiOn);
  const status = reading.data?.status;
  const jobId = reading.data?.jobId;
  // Told once it ends: a reading seen under way, or one asked for here.
  const watching = useRef(false);
  useEffect(() => {
    if (isReading(status)) {
      watching.current = true;
      return;
    }
    if (!watching.current || status === undefined) return;
    watching.current = false;
    if (status === 'done') {
      toast({
        title: 'Certificate read',
        description: 'Check each value read against the certificate and accept what matches.',
        variant: 'success',
      });
    } else {
      toast({
        title: 'The certificate could not be read',
        description: reading.data?.reason ?? 'The AI reading did not finish.',
        variant: 'error',
      });
    }
    void client.invalidateQueries({ queryKey: getDocumentQueryOptions(document.id).queryKey });
  }, [client, document.id, jobId, reading.data?.reason, status]);
  const watch = () => {
    watching.current = true;
  };
  return { reading, watch };
}

/**
 * "Certificate coverage" beside a COI on its own page: the coverage form (the vendor page's
 * Coverage dialog's), so a person copies the certificate field by field while looking at it, or
 * accepts what AI read of it, field by field. Says whether coverage is saved and who said it; a
 * viewer reads it without a way to change it.
 */
export function CoveragePanel({ document }: { document: VendorDocument }) {
  const write = useWritePermission();
  const config = useQuery(getPublicConfigQueryOptions());
  const aiOn = config.data?.aiReading === true;
  const { reading, watch } = useReading(document, aiOn);
  const saved = document.coverage;
  const source = saved ? `Saved. Source: ${COVERAGE_SOURCE_LABELS[saved.source]}` : 'Nothing saved yet';

  const ai = config.isSuccess ? (
    aiOn ? (
      <AiReading documentId={document.id} reading={reading} canWrite={write.allowed} onStarted={watch} />
    ) : (
      <p className="text-sm text-slate-600" data-testid="ai-reading">
        {AI_OFF}
      </p>
    )
  ) : null;

  return (
    <Card>
      <CardHeader title="Certificate coverage" description={<span data-testid="coverage-source">{source}</span>} />
      <CardBody className="space-y-4">
        {write.allowed ? (
          <>
            <p className="text-sm text-slate-600">What this certificate shows, field by field. {AMOUNTS_HINT}</p>
            {ai}
            <CoverageForm key={document.id} document={document} reading={reading.data ?? undefined} />
          </>
        ) : (
          <>
            <p className="flex gap-2 text-sm text-slate-600">
              <LockClosedIcon aria-hidden className="mt-0.5 size-4 shrink-0 text-slate-500" />
              {VIEWER_REASON}
            </p>
            {ai}
            {saved ? <CoverageForm key={document.id} document={document} readOnly /> : null}
          </>
        )}
      </CardBody>
    </Card>
  );
}
