import { ArrowPathIcon, CheckCircleIcon, EnvelopeIcon, ExclamationTriangleIcon } from '@heroicons/react/20/solid';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input, Textarea } from '@/components/ui/field';
import { toast } from '@/components/ui/toast';
import { useRequirementSets } from '@/lib/api/requirement-sets';
import { ERROR_CODES, errorMessage, isApiError } from '@/lib/api-error';
import { formatDate } from '@/lib/format';
import { useWritePermission } from '@/lib/permissions';
import { invalidateCompliance } from '@/lib/query-keys';
import type { Gap, Vendor } from '@/types/api';
import { useRequestCorrections } from '../api/request-corrections';
import { useCreateWaiver, useDeleteWaiver } from '../api/waivers';

/** Today in the browser's zone, `YYYY-MM-DD`: the earliest end date a waiver may have. */
function today(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function WaiveDialog({ vendorId, gap, onClose }: { vendorId: string; gap: Gap | null; onClose: () => void }) {
  return (
    <Dialog
      open={gap !== null}
      onClose={onClose}
      title="Waive this gap"
      description={gap ? `${gap.message} It stops counting through the end date; the waiver is in the activity log.` : undefined}
    >
      {gap ? <WaiveForm vendorId={vendorId} gap={gap} onClose={onClose} /> : null}
    </Dialog>
  );
}

function WaiveForm({ vendorId, gap, onClose }: { vendorId: string; gap: Gap; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [until, setUntil] = useState('');
  const [errors, setErrors] = useState<{ reason?: string; until?: string }>({});
  const waive = useCreateWaiver();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing = {
      reason: reason.trim() ? undefined : 'Say why this gap is acceptable.',
      until: until ? undefined : 'Choose the last day of the waiver.',
    };
    setErrors(missing);
    if (missing.reason || missing.until) return;
    waive.mutate(
      {
        vendorId,
        // An insured mismatch has no line: the server wants none.
        input: { kind: gap.kind, ...(gap.line ? { line: gap.line } : {}), reason: reason.trim(), until },
      },
      {
        onSuccess: () => {
          toast({ title: 'Gap waived', description: `Waived until ${formatDate(until)}.`, variant: 'success' });
          onClose();
        },
        onError: (failure) => {
          if (isApiError(failure)) setErrors({ reason: failure.fieldError('reason'), until: failure.fieldError('until') });
          toast({
            title: 'Could not waive the gap',
            description: errorMessage(failure, 'Failed to waive the gap'),
            variant: 'error',
          });
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label="Waive this gap">
      <Field label="Reason" error={errors.reason}>
        <Textarea
          name="reason"
          rows={3}
          maxLength={1000}
          value={reason}
          invalid={Boolean(errors.reason)}
          onChange={(event) => setReason(event.target.value)}
        />
      </Field>
      <Field label="Waived until" error={errors.until} hint="The gap counts again the day after.">
        <Input
          type="date"
          name="until"
          min={today()}
          value={until}
          invalid={Boolean(errors.until)}
          onChange={(event) => setUntil(event.target.value)}
        />
      </Field>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onClose} disabled={waive.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={waive.isPending} aria-busy={waive.isPending || undefined}>
          {waive.isPending ? <ArrowPathIcon aria-hidden className="size-4 animate-spin" /> : null}
          {waive.isPending ? 'Waiving...' : 'Waive gap'}
        </Button>
      </div>
    </form>
  );
}

function GapItem({ vendorId, gap, onWaive }: { vendorId: string; gap: Gap; onWaive: (gap: Gap) => void }) {
  const write = useWritePermission();
  const withdraw = useDeleteWaiver();
  const waived = gap.waived;

  function doWithdraw() {
    if (!waived) return;
    withdraw.mutate(
      { vendorId, waiverId: waived.id },
      {
        onSuccess: () => toast({ title: 'Waiver withdrawn', description: 'The gap counts again.', variant: 'success' }),
        onError: (error) =>
          toast({
            title: 'Could not withdraw the waiver',
            description: errorMessage(error, 'Failed to withdraw the waiver'),
            variant: 'error',
          }),
      },
    );
  }

  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between" data-testid="gap">
      <div className="flex min-w-0 gap-2">
        {waived ? (
          <CheckCircleIcon aria-hidden className="mt-0.5 size-4 shrink-0 text-slate-400" />
        ) : (
          <ExclamationTriangleIcon aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-500" />
        )}
        <div className="min-w-0 text-sm">
          <p className={waived ? 'text-slate-500' : 'text-slate-800'}>{gap.message}</p>
          {waived ? (
            <p className="mt-0.5 text-xs text-slate-600">
              Waived until {formatDate(waived.until)} by {waived.by}: {waived.reason}
            </p>
          ) : null}
        </div>
      </div>
      <div className="shrink-0 pl-6 sm:pl-0">
        {waived ? (
          <Button
            variant="outline"
            size="sm"
            onClick={doWithdraw}
            disabled={!write.allowed || withdraw.isPending}
            title={write.reason}
            aria-label={`Withdraw the waiver: ${gap.message}`}
          >
            {withdraw.isPending ? 'Withdrawing...' : 'Withdraw'}
          </Button>
        ) : (
          <Button
            variant="outline"
            size="sm"
            onClick={() => onWaive(gap)}
            disabled={!write.allowed}
            title={write.reason}
            aria-label={`Waive: ${gap.message}`}
          >
            Waive
          </Button>
        )}
      </div>
    </li>
  );
}

/**
 * "Request corrections": emails the vendor its gaps that count, once a day at most. After a
 * request, or the server's word that one went out today, it stays off for the rest of the visit.
 */
function RequestCorrections({
  vendorId,
  requested,
  onRequested,
}: {
  vendorId: string;
  requested: boolean;
  onRequested: () => void;
}) {
  const client = useQueryClient();
  const request = useRequestCorrections();

  function send() {
    request.mutate(vendorId, {
      onSuccess: (result) => {
        onRequested();
        toast({
          title: 'Corrections requested',
          description: `Emailed ${result.email} the gaps and the portal link.`,
          variant: 'success',
        });
      },
      onError: (error) => {
        if (isApiError(error) && error.code === ERROR_CODES.alreadyRequested) {
          onRequested();
          toast({
            title: 'Already requested today',
            description: errorMessage(error, 'This vendor was asked for corrections today already.'),
            variant: 'error',
          });
          return;
        }
        // Nothing to correct: the gaps changed since the page was read; show them as they are.
        if (isApiError(error) && error.code === ERROR_CODES.nothingToCorrect) void invalidateCompliance(client, ['vendors']);
        toast({
          title: 'Could not request corrections',
          description: errorMessage(error, 'Failed to request corrections'),
          variant: 'error',
        });
      },
    });
  }

  return (
    <div className="mt-4 flex flex-col gap-2 border-t border-slate-100 pt-4 sm:flex-row sm:items-center sm:justify-between">
      <p className="text-xs text-slate-600">
        Emails the vendor the gaps that count, with the portal link and its company key; once a day at most.
      </p>
      <Button
        variant="outline"
        size="sm"
        className="shrink-0"
        onClick={send}
        disabled={requested || request.isPending}
        aria-busy={request.isPending || undefined}
      >
        {request.isPending ? (
          <ArrowPathIcon aria-hidden className="size-4 animate-spin" />
        ) : (
          <EnvelopeIcon aria-hidden className="size-4" />
        )}
        {requested ? 'Requested today' : request.isPending ? 'Requesting...' : 'Request corrections'}
      </Button>
    </div>
  );
}

/** The vendor's requirement set and how its current certificates measure up: gaps in words, waivers. */
export function VendorRequirements({ vendor }: { vendor: Vendor }) {
  const sets = useRequirementSets();
  const write = useWritePermission();
  // Waived gaps do not count: a vendor with only those has nothing to correct.
  const counting = vendor.gaps.some((gap) => !gap.waived);
  // The vendor asked during this visit: kept here, so a gap waived and withdrawn meanwhile does not forget it.
  const [requestedFor, setRequestedFor] = useState<string | null>(null);
  const [waiving, setWaiving] = useState<Gap | null>(null);
  const setId = vendor.requirementSetId ?? null;
  const set = setId ? sets.data?.find((s) => s.id === setId) : undefined;
  const setName = set?.name ?? (sets.isPending ? 'Loading...' : 'Requirement set');

  return (
    <Card>
      <CardHeader title="Requirements" description={setId ? setName : 'No requirement set'} />
      <CardBody>
        {!setId ? (
          <p className="text-sm text-slate-600">
            This vendor has nothing to meet. Choose a set on its form;{' '}
            <Link to="/account/requirements" className="font-medium text-blue-600 hover:text-blue-700">
              see the requirement sets
            </Link>
            .
          </p>
        ) : (
          <>
            {vendor.meetsRequirements ? (
              <p className="flex items-center gap-2 text-sm font-medium text-emerald-700">
                <CheckCircleIcon aria-hidden className="size-5" />
                Meets requirements
              </p>
            ) : (
              <p className="flex items-center gap-2 text-sm font-medium text-amber-800">
                <ExclamationTriangleIcon aria-hidden className="size-5" />
                Does not meet requirements
              </p>
            )}
            {vendor.gaps.length > 0 ? (
              <ul className="mt-2 divide-y divide-slate-100" aria-label="Gaps">
                {vendor.gaps.map((gap) => (
                  <GapItem
                    key={`${gap.kind}:${gap.line ?? ''}:${gap.limit ?? ''}`}
                    vendorId={vendor.id}
                    gap={gap}
                    onWaive={setWaiving}
                  />
                ))}
              </ul>
            ) : null}
            {counting && write.allowed ? (
              <RequestCorrections
                vendorId={vendor.id}
                requested={requestedFor === vendor.id}
                onRequested={() => setRequestedFor(vendor.id)}
              />
            ) : null}
          </>
        )}
      </CardBody>
      <WaiveDialog vendorId={vendor.id} gap={waiving} onClose={() => setWaiving(null)} />
    </Card>
  );
}
