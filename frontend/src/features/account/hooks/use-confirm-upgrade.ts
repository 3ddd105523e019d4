import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { accountKeys } from '@/lib/api/account-keys';
import { authKeys } from '@/lib/api/auth-keys';
import { getMeQueryOptions } from '@/lib/api/get-me';
import { getPaymentStatusQueryOptions } from '@/lib/api/get-payment-status';
import { sessionStore } from '@/lib/session';
import { useUpgradeToProfessional } from '../api/upgrade-to-professional';

/** Delay before the user and the plan are read again once the upgrade call has answered. */
export const ACCOUNT_REFRESH_DELAY = 500;

/**
 * Session storage key holding the checkout session id this tab already asked the server to confirm
 * (empty when the return URL carried none). A reload or a second mount never asks twice.
 */
export const UPGRADE_FLAG_KEY = 'upgradeRequested';

export type UpgradeOutcome = 'confirming' | 'upgraded' | 'failed' | 'skipped';

export type RedirectDelays = {
  /** Milliseconds on the page after the server confirmed the upgrade. */
  success: number;
  /** Milliseconds on the page after a refusal (or when nothing was asked). */
  failure: number;
};

function readFlag(): string | null {
  try {
    return window.sessionStorage.getItem(UPGRADE_FLAG_KEY);
  } catch {
    return null;
  }
}

function writeFlag(sessionId: string) {
  try {
    window.sessionStorage.setItem(UPGRADE_FLAG_KEY, sessionId);
  } catch {
    // Without session storage the in-memory guard of the mounted page still holds.
  }
}

/** Reads the user and the plan again, so the dashboard shows the plan the server now has. */
function refreshAccount(client: QueryClient) {
  void client.invalidateQueries({ queryKey: accountKeys.all() });
  void client.invalidateQueries({ queryKey: authKeys.me() });
  const { token } = sessionStore.get();
  if (!token) return;
  void client.prefetchQuery(getPaymentStatusQueryOptions());
  client
    .fetchQuery({ ...getMeQueryOptions(), staleTime: 0 })
    .then((user) => {
      if (sessionStore.get().token === token) sessionStore.setUser({ ...user, id: String(user.id) });
    })
    .catch(() => {
      // The session check at start-up deals with a dead token; the redirect goes on regardless.
    });
}

/**
 * The thank-you pages' work after Stripe sends the browser back: ask the server once to confirm the
 * payment (with `session_id` from the URL; `user_id` is never read), clean the URL, refresh the
 * user and the plan after 500 ms, then go to /dashboard after the success or failure delay. A
 * failure is silent: the dashboard shows whatever plan the server has.
 */
export function useConfirmUpgrade(delays: RedirectDelays): UpgradeOutcome {
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { mutate, isSuccess, isError } = useUpgradeToProfessional();
  // Read once: the URL is cleaned right after.
  const [returned] = useState(() => ({
    sessionId: searchParams.get('session_id') || undefined,
    serverHandled: searchParams.has('server_handled'),
  }));
  const [skipped, setSkipped] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    setSearchParams({}, { replace: true });
    const flag = readFlag();
    const alreadyAsked = returned.sessionId ? flag === returned.sessionId : flag !== null;
    if (returned.serverHandled || alreadyAsked) {
      setSkipped(true);
      return;
    }
    writeFlag(returned.sessionId ?? '');
    mutate({ sessionId: returned.sessionId });
  }, [mutate, returned, setSearchParams]);

  const outcome: UpgradeOutcome = skipped ? 'skipped' : isSuccess ? 'upgraded' : isError ? 'failed' : 'confirming';

  useEffect(() => {
    if (outcome === 'confirming') return;
    const refresh = setTimeout(() => refreshAccount(client), ACCOUNT_REFRESH_DELAY);
    const redirect = setTimeout(
      () => navigate('/dashboard', { replace: true }),
      outcome === 'upgraded' ? delays.success : delays.failure,
    );
    return () => {
      clearTimeout(refresh);
      clearTimeout(redirect);
    };
  }, [client, delays.failure, delays.success, navigate, outcome]);

  return outcome;
}
