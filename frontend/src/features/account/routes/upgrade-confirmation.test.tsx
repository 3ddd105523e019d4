import { http } from '@/testing/mocks/http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/testing/mocks/db';
import { server } from '@/testing/mocks/server';
import { act, renderApp, screen, signInAs } from '@/testing/test-utils';
import { UPGRADE_TEXTS } from '../components/upgrade-confirmation';
import { UPGRADE_FLAG_KEY } from '../hooks/use-confirm-upgrade';

const PAID_SESSION = 'cs_test_paid';
const RETURN_QUERY = `?session_id=${PAID_SESSION}&upgrade_success=true&user_id=someone-else`;

/** Bodies of every POST /api/upgrade-to-professional; the mock server's handler still answers. */
function recordUpgradeCalls() {
  const bodies: unknown[] = [];
  server.use(
    http.post('/api/upgrade-to-professional', async ({ request }) => {
      bodies.push(await request.clone().json());
    }),
  );
  return bodies;
}

/** Holds the upgrade call until release(): timings are measured from the moment it answers. */
function holdUpgradeCall() {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let received = false;
  server.use(
    http.post('/api/upgrade-to-professional', async () => {
      received = true;
      await held;
    }),
  );
  return { release, received: () => received };
}

/** Paths of every request, in order. */
function recordRequests() {
  const paths: string[] = [];
  const listener = ({ request }: { request: Request }) => {
    paths.push(`${request.method} ${new URL(request.url).pathname}`);
  };
  server.events.on('request:start', listener);
  return paths;
}

/** Moves fake time on 1 ms at a time, letting real I/O (the mock server) run in between. */
async function stepUntil(done: () => boolean) {
  const deadline = performance.now() + 5000;
  while (!done()) {
    if (performance.now() > deadline) throw new Error('gave up waiting');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1);
    });
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Gives the mock server real event-loop turns (setImmediate is not faked). */
async function letRealIoRun(turns = 20) {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}

type AppRouter = ReturnType<typeof renderApp>['router'];

/** Where the router is: the target of a navigation under way (the next page's code may still load), else the location. */
function heading(router: AppRouter) {
  return router.state.navigation.location?.pathname ?? router.state.location.pathname;
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/**
 * Opens the page with the upgrade call held, switches to fake timers, releases the call and
 * returns once the outcome text shows: redirect delays count from there.
 */
async function openAndAnswer(url: string, outcomeText: string) {
  const hold = holdUpgradeCall();
  const view = renderApp(url);
  expect(await screen.findByText(UPGRADE_TEXTS.confirming)).toBeInTheDocument();
  expect(screen.getByRole('progressbar', { name: 'Confirming your payment' })).toBeInTheDocument();
  await vi.waitFor(() => expect(hold.received()).toBe(true));
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  hold.release();
  await stepUntil(() => screen.queryByText(outcomeText) !== null);
  return view;
}

beforeEach(() => {
  db.billing.paidSessions = [PAID_SESSION];
});

afterEach(() => {
  vi.useRealTimers();
  server.events.removeAllListeners();
});

describe('payment-success page', () => {
  it('confirms the paid session once, thanks the user and cleans the URL', async () => {
    signInAs();
    const bodies = recordUpgradeCalls();
    const { router } = renderApp(`/payment-success${RETURN_QUERY}`);
    expect(await screen.findByRole('heading', { name: 'Thank you for your payment!' })).toBeInTheDocument();
    expect(await screen.findByText(UPGRADE_TEXTS.upgraded)).toBeInTheDocument();
    expect(screen.getByText(UPGRADE_TEXTS.redirecting)).toBeInTheDocument();
    expect(bodies).toEqual([{ sessionId: PAID_SESSION }]);
    expect(router.state.location.pathname).toBe('/payment-success');
    expect(router.state.location.search).toBe('');
    expect(db.plan.plan).toBe('professional');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('goes to /dashboard 2 s after the upgrade and refreshes the user and the plan after 500 ms', async () => {
    signInAs();
    const { router } = await openAndAnswer(`/payment-success${RETURN_QUERY}`, UPGRADE_TEXTS.upgraded);
    const requests = recordRequests();
    await advance(490);
    await letRealIoRun();
    expect(requests).toEqual([]);
    await advance(10);
    await stepUntil(() => requests.length >= 2);
    expect(requests).toEqual(expect.arrayContaining(['GET /api/payment-status', 'GET /api/auth/me']));

    await advance(1480);
    expect(heading(router)).toBe('/payment-success');
    await advance(20);
    expect(heading(router)).toBe('/dashboard');
    await stepUntil(() => router.state.location.pathname === '/dashboard');
  });

  it('redirects silently 2 s after a refused upgrade, and the plan stays Free', async () => {
    signInAs();
    const url = '/payment-success?session_id=cs_test_unpaid&upgrade_success=true';
    const { router } = await openAndAnswer(url, UPGRADE_TEXTS.failed);
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    await advance(1990);
    expect(heading(router)).toBe('/payment-success');
    await advance(10);
    expect(heading(router)).toBe('/dashboard');
    await stepUntil(() => router.state.location.pathname === '/dashboard');
    expect(db.plan.plan).toBe('free');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('calls the server only once under StrictMode double mounting', async () => {
    signInAs();
    const bodies = recordUpgradeCalls();
    renderApp(`/payment-success${RETURN_QUERY}`, { strict: true });
    expect(await screen.findByText(UPGRADE_TEXTS.upgraded)).toBeInTheDocument();
    expect(bodies).toHaveLength(1);
  });

  it('does not call again when the page is opened again in the same tab', async () => {
    signInAs();
    const bodies = recordUpgradeCalls();
    const first = renderApp(`/payment-success${RETURN_QUERY}`);
    expect(await screen.findByText(UPGRADE_TEXTS.upgraded)).toBeInTheDocument();
    first.unmount();
    expect(window.sessionStorage.getItem(UPGRADE_FLAG_KEY)).toBe(PAID_SESSION);

    // A reload of the same return URL, and of the cleaned one.
    const again = renderApp(`/payment-success${RETURN_QUERY}`);
    expect(await screen.findByText(UPGRADE_TEXTS.redirecting)).toBeInTheDocument();
    again.unmount();
    const cleaned = renderApp('/payment-success');
    expect(await screen.findByText(UPGRADE_TEXTS.redirecting)).toBeInTheDocument();
    await vi.waitFor(() => expect(cleaned.router.state.location.pathname).toBe('/dashboard'), { timeout: 4000 });
    expect(bodies).toHaveLength(1);
  });

  it('asks again for a new checkout session', async () => {
    signInAs();
    window.sessionStorage.setItem(UPGRADE_FLAG_KEY, 'cs_test_old');
    const bodies = recordUpgradeCalls();
    renderApp(`/payment-success${RETURN_QUERY}`);
    expect(await screen.findByText(UPGRADE_TEXTS.upgraded)).toBeInTheDocument();
    expect(bodies).toEqual([{ sessionId: PAID_SESSION }]);
  });

  it('sends the user to sign in when nobody is signed in', async () => {
    const bodies = recordUpgradeCalls();
    const { router } = renderApp(`/payment-success${RETURN_QUERY}`);
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(bodies).toEqual([]);
  });
});

describe('upgrade-success page', () => {
  it('thanks the user and goes to /dashboard 1.5 s after the upgrade', async () => {
    signInAs();
    const { router } = await openAndAnswer(`/upgrade-success${RETURN_QUERY}`, UPGRADE_TEXTS.upgraded);
    expect(screen.getByRole('heading', { name: 'Thank you for upgrading!' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('');
    await advance(1490);
    expect(heading(router)).toBe('/upgrade-success');
    await advance(10);
    expect(heading(router)).toBe('/dashboard');
  });

  it('goes to /dashboard 1 s after a refused upgrade', async () => {
    signInAs();
    const { router } = await openAndAnswer('/upgrade-success?session_id=cs_test_unpaid', UPGRADE_TEXTS.failed);
    await advance(990);
    expect(heading(router)).toBe('/upgrade-success');
    await advance(10);
    expect(heading(router)).toBe('/dashboard');
  });

  it('is public: without a session the refused call still ends on the way to the dashboard', async () => {
    const bodies = recordUpgradeCalls();
    renderApp('/upgrade-success?session_id=cs_test_paid');
    expect(await screen.findByRole('heading', { name: 'Thank you for upgrading!' })).toBeInTheDocument();
    expect(await screen.findByText(UPGRADE_TEXTS.failed)).toBeInTheDocument();
    expect(bodies).toEqual([{ sessionId: PAID_SESSION }]);
  });
});
