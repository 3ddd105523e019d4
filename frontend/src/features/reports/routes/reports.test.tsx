import { HttpResponse } from 'msw';
import { db } from '@/testing/mocks/db';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildComplianceReport } from '@/testing/mocks/fixtures';
import { CHECKOUT_URL } from '@/testing/mocks/handlers/billing';
import { PLAN_REQUIRED_MESSAGE } from '@/testing/mocks/handlers/reports';
import { http } from '@/testing/mocks/http';
import { server } from '@/testing/mocks/server';
import { renderApp, screen, signInAs, stubLocationAssign, waitFor, within } from '@/testing/test-utils';
import { WEEKLY_SUMMARY_LABEL } from '@/components/account/email-preferences';

let location: ReturnType<typeof stubLocationAssign> | null = null;
afterEach(() => {
  location?.restore();
  location = null;
  server.events.removeAllListeners();
});

function professional() {
  db.plan = { plan: 'professional', vendorLimit: 25, documentLimitPerVendor: null };
}

/** URLs of the report calls, in order. */
function recordReportCalls() {
  const urls: URL[] = [];
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/api/reports/')) urls.push(url);
  });
  return urls;
}

async function region(name: string) {
  return within(await screen.findByRole('region', { name }));
}

/** A filter's listbox button (the column header of the same name sorts instead). */
function filterButton(scope: ReturnType<typeof within>, name: string) {
  return scope.getByRole('button', { name, expanded: false });
}

/** Consecutive repeats dropped: a page's loader and the page itself may both ask. */
function changes(values: string[]) {
  return values.filter((v, i) => v !== values[i - 1]);
}

function rowTexts(table: HTMLElement) {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0].textContent);
}

describe('reports, Professional', () => {
  it('shows the trend chart, the rate and its change, and the missing days as gaps', async () => {
    signInAs();
    professional();
    db.reports.compliance[30] = buildComplianceReport({
      days: 30,
      missing: ['2025-03-10', '2025-03-11', '2025-03-12', '2025-03-20'],
      rate: { current: 75, start: 60, change: 15 },
    });
    renderApp('/reports');
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    const trend = await region('Compliance Trend');
    expect(await trend.findByTestId('compliance-rate')).toHaveTextContent('75%');
    expect(trend.getByTestId('compliance-rate-change')).toHaveTextContent('+15 percentage points');
    expect(trend.getByText('From 60% at the start of the period')).toBeInTheDocument();

    const chart = trend.getByRole('img', { name: /^Vendors by status from Mar 2, 2025 to Mar 31, 2025/ });
    expect(chart).toHaveAccessibleName(/no data for 4 of 30 days/);
    expect(trend.getAllByTestId('chart-gap')).toHaveLength(2);
    // The line stops at each gap and starts again after it: three runs, nothing drawn across.
    const current = chart.querySelector('path[data-series="Current"]')!;
    expect(current.getAttribute('d')!.match(/M/g)).toHaveLength(3);

    const gaps = trend.getByTestId('trend-gaps');
    expect(within(gaps).getByText('No data for 3 days (Mar 10 – Mar 12, 2025)')).toBeInTheDocument();
    expect(within(gaps).getByText('No data for 1 day (Mar 20, 2025)')).toBeInTheDocument();

    const table = trend.getByRole('table', { name: 'Vendors by status, day by day' });
    expect(within(table).getAllByRole('row')).toHaveLength(31);
    expect(within(table).getAllByText('No data')).toHaveLength(4);
  });

  it('fetches the chosen period again with the selector', async () => {
    signInAs();
    professional();
    db.reports.compliance[90] = buildComplianceReport({ days: 90, rate: { current: 50, start: 60, change: -10 } });
    const calls = recordReportCalls();
    const { user } = renderApp('/reports');
    const trend = await region('Compliance Trend');
    expect(await trend.findByTestId('compliance-rate')).toHaveTextContent('75%');
    expect(trend.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(trend.getByRole('button', { name: '90 days' }));
    await waitFor(() => expect(trend.getByTestId('compliance-rate')).toHaveTextContent('50%'));
    expect(trend.getByTestId('compliance-rate-change')).toHaveTextContent('-10 percentage points');
    expect(trend.getByRole('button', { name: '90 days' })).toHaveAttribute('aria-pressed', 'true');
    expect(trend.getByRole('img', { name: /^Vendors by status from Jan 1, 2025 to Mar 31, 2025/ })).toBeInTheDocument();
    const compliance = calls.filter((u) => u.pathname === '/api/reports/compliance').map((u) => u.searchParams.get('days') ?? '');
    expect(changes(compliance)).toEqual(['30', '90']);
  });

  it('lists the expirations of the coming weeks with their vendors', async () => {
    signInAs();
    professional();
    renderApp('/reports');
    const expirations = await region('Upcoming Expirations');
    const list = await expirations.findByRole('list', { name: 'Expirations by week' });
    const weeks = within(list).getAllByRole('heading', { level: 3 });
    expect(weeks.map((w) => w.textContent)).toEqual([
      'Week of Mar 31 – Apr 6, 20252 documents',
      'Week of Apr 14 – Apr 20, 20251 document',
    ]);
    expect(within(list).getByRole('link', { name: 'Acme Plumbing' })).toHaveAttribute('href', '/vendors/VEND0001');
    expect(within(list).getByText('COI - General, expires Apr 2, 2025')).toBeInTheDocument();
    expect(within(list).getByText('W-9 Form, expires Apr 4, 2025')).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: 'Bolt Electrical' })).toHaveAttribute('href', '/vendors/VEND0002');
    expect(
      expirations.getByRole('img', { name: /^Documents expiring per week: Mar 31 2, Apr 7 0, Apr 14 1/ }),
    ).toBeInTheDocument();
    expect(expirations.getByText('3 documents expiring in the next 12 weeks')).toBeInTheDocument();
  });

  it('sorts the non-compliant vendors and filters them by status and service type', async () => {
    signInAs();
    professional();
    const calls = recordReportCalls();
    const { user } = renderApp('/reports');
    const section = await region('Non-Compliant Vendors');
    const table = await section.findByRole('table', { name: 'Non-compliant vendors' });
    // Worst first.
    expect(rowTexts(table)).toEqual(['Acme Plumbing', 'Clean Co', 'Bolt Electrical', 'Dune Hauling']);
    // A vendor whose documents are current is listed for its requirement gaps.
    expect(within(table).getByTestId('report-gap')).toHaveTextContent('No automobile liability on file.');
    // A waived gap shows with its waiver, apart from the gaps that count.
    expect(within(table).getByTestId('report-waived-gap')).toHaveTextContent(
      'No automobile liability on file. Waived by Ann Admin until Dec 31, 2099: No vehicles on site',
    );
    expect(within(table).getByRole('link', { name: 'Clean Co' })).toHaveAttribute('href', '/vendors/VEND0003');
    const acme = within(table).getAllByRole('row')[1];
    expect(within(acme).getByText('COI - General expired')).toBeInTheDocument();
    expect(within(acme).getByText('W-9 Form missing')).toBeInTheDocument();
    expect(within(acme).getByText('Expired')).toBeInTheDocument();
    expect(within(table).getByText('No documents on file')).toBeInTheDocument();
    expect(within(table).getByText('COI - Auto expiring soon')).toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Vendor' }));
    expect(rowTexts(table)).toEqual(['Acme Plumbing', 'Bolt Electrical', 'Clean Co', 'Dune Hauling']);
    await user.click(within(table).getByRole('button', { name: 'Vendor' }));
    expect(rowTexts(table)).toEqual(['Dune Hauling', 'Clean Co', 'Bolt Electrical', 'Acme Plumbing']);
    await user.click(within(table).getByRole('button', { name: 'Status' }));
    expect(rowTexts(table)).toEqual(['Acme Plumbing', 'Clean Co', 'Bolt Electrical', 'Dune Hauling']);

    await user.click(filterButton(section, 'Status'));
    await user.click(await screen.findByRole('option', { name: 'Expired' }));
    await waitFor(() => expect(rowTexts(section.getByRole('table'))).toEqual(['Acme Plumbing']));

    await user.click(filterButton(section, 'Service type'));
    await user.click(await screen.findByRole('option', { name: 'Cleaning' }));
    expect(await section.findByText('No vendors match these filters.')).toBeInTheDocument();

    await user.click(filterButton(section, 'Status'));
    await user.click(await screen.findByRole('option', { name: 'All Statuses' }));
    await waitFor(() => expect(rowTexts(section.getByRole('table'))).toEqual(['Clean Co']));

    const queries = calls.filter((u) => u.pathname === '/api/reports/non-compliant').map((u) => u.search);
    expect(changes(queries)).toEqual(['', '?status=expired', '?status=expired&serviceType=cleaning', '?serviceType=cleaning']);
  });

  it("says 'Not yet' for a document the vendor has not uploaded", async () => {
    signInAs();
    professional();
    renderApp('/reports');
    const section = await region('Vendor Responsiveness');
    const table = await section.findByRole('table', { name: 'Vendor responsiveness' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Vendor', 'Document', 'Requested', 'Uploaded', 'Days to Upload']);
    const row = (name: string) => within(table).getByRole('link', { name }).closest('tr')!;
    expect(within(row('Bolt Electrical')).getAllByText('Not yet')).toHaveLength(2);
    expect(row('Acme Plumbing')).toHaveTextContent('Mar 1, 2025');
    expect(row('Acme Plumbing')).toHaveTextContent('Mar 4, 2025');
    expect(row('Acme Plumbing')).toHaveTextContent('3 days');
    expect(section.getByText('Requested documents arrive after 3 days on average')).toBeInTheDocument();
  });

  it('exports each report as CSV with the query on screen', async () => {
    signInAs();
    professional();
    const createObjectURL = vi.fn(() => 'blob:mock');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const calls = recordReportCalls();
    const { user } = renderApp('/reports');

    const trend = await region('Compliance Trend');
    await trend.findByTestId('compliance-rate');
    await user.click(trend.getByRole('button', { name: '365 days' }));
    await user.click(trend.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Download started');
    expect(screen.getByRole('status')).toHaveTextContent('compliance-report.csv');
    expect(click).toHaveBeenCalledTimes(1);
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('compliance-report.csv');

    const nonCompliant = await region('Non-Compliant Vendors');
    await nonCompliant.findByRole('table');
    await user.click(filterButton(nonCompliant, 'Status'));
    await user.click(await screen.findByRole('option', { name: 'Missing Documents' }));
    await user.click(nonCompliant.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(2));

    await user.click((await region('Upcoming Expirations')).getByRole('button', { name: 'Export CSV' }));
    await user.click((await region('Vendor Responsiveness')).getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(4));

    const csv = calls.filter((u) => u.searchParams.get('format') === 'csv').map((u) => `${u.pathname}${u.search}`);
    expect(csv).toEqual([
      '/api/reports/compliance?days=365&format=csv',
      '/api/reports/non-compliant?status=missing&format=csv',
      '/api/reports/expirations?format=csv',
      '/api/reports/responsiveness?format=csv',
    ]);
  });

  it('exports each report as an Excel workbook with the query on screen', async () => {
    signInAs();
    professional();
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:mock'), revokeObjectURL: vi.fn() });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const calls = recordReportCalls();
    const { user } = renderApp('/reports');

    const trend = await region('Compliance Trend');
    await trend.findByTestId('compliance-rate');
    await user.click(trend.getByRole('button', { name: '90 days' }));
    await user.click(trend.getByRole('button', { name: 'Export Excel' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Download started');
    expect(screen.getByRole('status')).toHaveTextContent('compliance-report.xlsx');
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('compliance-report.xlsx');
    await user.click((await region('Non-Compliant Vendors')).getByRole('button', { name: 'Export Excel' }));
    await user.click((await region('Upcoming Expirations')).getByRole('button', { name: 'Export Excel' }));
    await user.click((await region('Vendor Responsiveness')).getByRole('button', { name: 'Export Excel' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(4));

    const xlsx = calls.filter((u) => u.searchParams.get('format') === 'xlsx').map((u) => `${u.pathname}${u.search}`);
    expect(xlsx).toEqual([
      '/api/reports/compliance?days=90&format=xlsx',
      '/api/reports/non-compliant?format=xlsx',
      '/api/reports/expirations?format=xlsx',
      '/api/reports/responsiveness?format=xlsx',
    ]);
    expect(calls.filter((u) => u.searchParams.get('format') === 'csv')).toEqual([]);
  });

  it("toasts the server's sentence when an export fails", async () => {
    signInAs();
    professional();
    server.use(
      http.get('/api/reports/expirations', ({ request }) =>
        new URL(request.url).searchParams.get('format') === 'csv'
          ? HttpResponse.json({ error: 'internal_error', message: 'The export could not be built.' }, { status: 500 })
          : undefined,
      ),
    );
    const { user } = renderApp('/reports');
    const section = await region('Upcoming Expirations');
    await section.findByRole('list', { name: 'Expirations by week' });
    await user.click(section.getByRole('button', { name: 'Export CSV' }));
    const toast = await screen.findByRole('status');
    expect(toast).toHaveTextContent('Export failed');
    expect(toast).toHaveTextContent('The export could not be built.');
  });

  it('prints the page', async () => {
    signInAs();
    professional();
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const { user } = renderApp('/reports');
    await user.click(await screen.findByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it('is in the navigation', async () => {
    signInAs();
    professional();
    const { user, router } = renderApp('/dashboard');
    const main = within(await screen.findByTestId('sidebar')).getByRole('navigation', { name: 'Main' });
    await user.click(within(main).getByRole('link', { name: 'Reports' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Reports' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/reports');
  });
});

describe('reports, Free', () => {
  it("shows what the reports are, the server's sentence and Upgrade Now", async () => {
    signInAs();
    location = stubLocationAssign();
    const { user } = renderApp('/reports');
    expect(await screen.findByTestId('plan-required-message')).toHaveTextContent(PLAN_REQUIRED_MESSAGE);
    expect(screen.getByRole('heading', { name: 'Reports are part of the Professional plan' })).toBeInTheDocument();
    for (const name of ['Compliance Trend', 'Upcoming Expirations', 'Non-Compliant Vendors', 'Vendor Responsiveness']) {
      expect(screen.getByRole('heading', { level: 3, name })).toBeInTheDocument();
    }
    expect(screen.getAllByText('Sample')).toHaveLength(4);
    // The previews are pictures of made-up data: nothing of them reaches assistive technology.
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Print' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Upgrade Now' }));
    await waitFor(() => expect(location?.assign).toHaveBeenCalledWith(CHECKOUT_URL));
  });

  it('shows a real error, not the upgrade prompt, when the reports fail otherwise', async () => {
    signInAs();
    professional();
    server.use(
      http.get('/api/reports/compliance', () =>
        HttpResponse.json({ error: 'internal_error', message: 'Reports are unavailable right now.' }, { status: 500 }),
      ),
    );
    renderApp('/reports');
    const trend = await region('Compliance Trend');
    expect(await trend.findByRole('alert')).toHaveTextContent('Reports are unavailable right now.');
    expect(screen.queryByTestId('reports-locked')).not.toBeInTheDocument();
  });
});

describe('weekly summary email', () => {
  it('is switched on and off, with a toast', async () => {
    const account = signInAs();
    professional();
    const { user } = renderApp('/reports');
    const toggle = await screen.findByRole('switch', { name: WEEKLY_SUMMARY_LABEL });
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).not.toBeChecked();

    await user.click(toggle);
    expect(await screen.findByRole('status')).toHaveTextContent('Preferences saved');
    expect(toggle).toBeChecked();
    expect(account.weeklySummary).toBe(true);
    expect(JSON.parse(localStorage.getItem('user')!).weeklySummary).toBe(true);

    await waitFor(() => expect(toggle).toBeEnabled());
    await user.click(toggle);
    await waitFor(() => expect(toggle).not.toBeChecked());
    expect(account.weeklySummary).toBe(false);
  });

  it("puts the switch back and toasts the server's sentence when saving fails", async () => {
    signInAs({ weeklySummary: true });
    professional();
    server.use(
      http.put('/api/account/preferences', () =>
        HttpResponse.json({ error: 'internal_error', message: 'Preferences could not be saved.' }, { status: 500 }),
      ),
    );
    const { user } = renderApp('/reports');
    const toggle = await screen.findByRole('switch', { name: WEEKLY_SUMMARY_LABEL });
    await waitFor(() => expect(toggle).toBeChecked());
    await waitFor(() => expect(toggle).toBeEnabled());
    await user.click(toggle);
    const toast = await screen.findByRole('status');
    expect(toast).toHaveTextContent('Could not save preferences');
    expect(toast).toHaveTextContent('Preferences could not be saved.');
    await waitFor(() => expect(toggle).toBeChecked());
  });
});
