import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests against a running server: scripts/test starts the real Rust server first
 * (frontend/README.md shows how by hand). No web server is started from here and no browser is
 * downloaded: the system chromium is used (/usr/bin/chromium, or CHROMIUM_PATH).
 */
export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  // One retry: a test that passes only the second time is reported as flaky by name in the
  // summary (and fails the run when it fails twice), so one slow moment of a loaded 2-core
  // machine does not fail CI without telling which test it was.
  retries: 1,
  forbidOnly: Boolean(process.env.CI),
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL ?? 'http://localhost:5150',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    serviceWorkers: 'block',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        },
      },
    },
  ],
});
