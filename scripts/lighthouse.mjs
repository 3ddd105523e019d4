// The body of scripts/lighthouse (which installs Lighthouse and documents the settings): starts
// the server on a temporary SQLite database, seeds it through the API, runs Lighthouse on each
// page LIGHTHOUSE_RUNS times and reports the medians.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const serverRoot = resolve(env.LIGHTHOUSE_ROOT || repo);
const runs = Number(env.LIGHTHOUSE_RUNS || 3);
const pages = (env.LIGHTHOUSE_PAGES || '/ /login /blog /dashboard').split(/\s+/).filter(Boolean);
const preset = env.LIGHTHOUSE_PRESET || 'mobile';
const report = env.LIGHTHOUSE_REPORT ? resolve(env.LIGHTHOUSE_REPORT) : null;
const jsonDir = env.LIGHTHOUSE_JSON_DIR ? resolve(env.LIGHTHOUSE_JSON_DIR) : null;
const signedInPages = new Set(['/dashboard']);
const categories = ['performance', 'accessibility', 'best-practices', 'seo'];

function defaultBin() {
  const target = env.CARGO_TARGET_DIR || join(repo, 'target');
  const release = join(target, 'release', 'vendorwatch-cli');
  return existsSync(release) ? release : join(target, 'debug', 'vendorwatch-cli');
}
const bin = resolve(env.VENDORWATCH_BIN || defaultBin());

const lhRequire = createRequire(join(env.LIGHTHOUSE_DIR || '.', 'package.json'));
const { default: lighthouse, desktopConfig } = await import(pathToFileURL(lhRequire.resolve('lighthouse')).href);
const chromeLauncher = lhRequire('chrome-launcher');
const puppeteer = lhRequire('puppeteer-core');

function fail(message) {
  console.error(`lighthouse: ${message}`);
  process.exit(1);
}

if (!Number.isInteger(runs) || runs < 1) fail(`LIGHTHOUSE_RUNS must be a positive whole number, not ${env.LIGHTHOUSE_RUNS}`);
if (!['mobile', 'desktop'].includes(preset)) fail(`LIGHTHOUSE_PRESET is mobile or desktop, not ${preset}`);
if (!existsSync(bin)) fail(`no server binary at ${bin} (VENDORWATCH_BIN)`);
if (!existsSync(join(serverRoot, 'assets', 'index.html')))
  fail(`${serverRoot}/assets/index.html is missing: build the frontend first (cd frontend && npm run build)`);
if (!existsSync(join(serverRoot, 'config'))) fail(`${serverRoot}/config is missing (LIGHTHOUSE_ROOT)`);

const portFree = (port) =>
  new Promise((done) => {
    const probe = net.createServer();
    probe.once('error', () => done(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
  });

/** A free port from `first` to 5619 (the range this machine's benchmarks may use). */
async function choosePort(first) {
  for (let port = first; port <= Math.max(first, 5619); port++) if (await portFree(port)) return port;
  fail(`no free port from ${first} to 5619 (LIGHTHOUSE_PORT)`);
}

const tmp = mkdtempSync(join(tmpdir(), 'vw-lighthouse-'));
const port = await choosePort(Number(env.LIGHTHOUSE_PORT || 5611));
const origin = `http://127.0.0.1:${port}`;
const serverEnv = {
  ...env,
  LOCO_ENV: 'development',
  PORT: String(port),
  BINDING: '127.0.0.1',
  APP_URL: origin,
  DATABASE_URL: `sqlite://${tmp}/lighthouse.sqlite?mode=rwc`,
  QUEUE_KIND: 'Sqlite',
  QUEUE_URL: `sqlite://${tmp}/queue.sqlite?mode=rwc`,
  STORAGE_KIND: 'local',
  STORAGE_DIR: join(tmp, 'storage'),
  MAIL_OUTBOX_DIR: join(tmp, 'mail'),
  LOG_LEVEL: env.LOG_LEVEL || 'warn',
};

let server = null;
let chrome = null;
function cleanUp() {
  try {
    chrome?.kill();
  } catch {
    /* already gone */
  }
  if (server && server.exitCode === null) server.kill('SIGTERM');
  if (env.LIGHTHOUSE_KEEP_TMP === '1') console.error(`lighthouse: kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

async function startServer() {
  const log = openSync(join(tmp, 'server.log'), 'a');
  server = spawn(bin, ['start'], { cwd: serverRoot, env: serverEnv, stdio: ['ignore', log, log] });
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) break;
    try {
      if ((await fetch(`${origin}/_ping`)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  const tail = readFileSync(join(tmp, 'server.log'), 'utf8').split('\n').slice(-20).join('\n');
  fail(`the server did not answer on ${origin}/_ping:\n${tail}`);
}

async function api(method, path, body, token) {
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
    body: body && JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) fail(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** A user with two vendors (the dashboard's session), and an admin's three published posts. */
async function seed() {
  const owner = await api('POST', '/api/auth/register', {
    name: 'Lighthouse Owner',
    email: 'owner@lighthouse.test',
    password: 'lighthouse-password-1',
    company: 'Lighthouse Facilities',
  });
  const vendors = [
    { name: 'Acme Plumbing', email: 'office@acme-plumbing.test', serviceType: 'plumbing' },
    { name: 'Brightline Electric', email: 'hello@brightline.test', serviceType: 'electrical' },
  ];
  for (const vendor of vendors) await api('POST', '/api/vendors', vendor, owner.token);

  const admin = await api('POST', '/api/auth/register', {
    name: 'Lighthouse Editor',
    email: 'editor@lighthouse.test',
    password: 'lighthouse-password-2',
    company: '',
  });
  const task = spawnSync(bin, ['task', 'make_admin', 'email:editor@lighthouse.test'], {
    cwd: serverRoot,
    env: serverEnv,
    encoding: 'utf8',
  });
  if (task.status !== 0) fail(`make_admin: ${task.stdout}${task.stderr}`);
  const posts = [
    ['What a certificate of insurance must show', 'coi'],
    ['Collecting W-9 forms before the first payment', 'w-9'],
    ['Renewal reminders that vendors answer', 'renewals'],
  ];
  for (const [title, tag] of posts) {
    await api(
      'POST',
      '/api/admin/blog-posts',
      {
        title,
        content: `## ${title}\n\n${'Vendor compliance, one document at a time. '.repeat(40)}`,
        excerpt: `${title}: what to ask vendors for, what to check on the document, and when to ask again.`,
        tags: [tag, 'compliance'],
        published: true,
      },
      admin.token,
    );
  }
  return owner;
}

const chromeFlags = ['--headless=new', '--no-sandbox', '--disable-gpu'];

/** One Lighthouse run of `path` in a new Chromium profile; `session`: stored first, as the app stores it. */
async function runOnce(path, session) {
  // Chromium's debugging port (for Lighthouse): the next free one after the server's.
  chrome = await chromeLauncher.launch({ chromePath: env.CHROME_PATH, chromeFlags, port: await choosePort(port + 1) });
  try {
    if (session) {
      const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
      const page = await browser.newPage();
      // A file of the origin that is not the app: nothing of the app gets cached (Lighthouse empties
      // the HTTP cache anyway, and keeps localStorage).
      await page.goto(`${origin}/favicon.svg`);
      await page.evaluate(({ token, user }) => {
        localStorage.setItem('token', token);
        localStorage.setItem('user', JSON.stringify(user));
        localStorage.setItem('userId', String(user.id));
      }, session);
      await page.close();
      await browser.disconnect();
    }
    const load = loadavg();
    const result = await lighthouse(
      `${origin}${path}`,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: categories },
      preset === 'desktop' ? desktopConfig : undefined,
    );
    const lhr = result?.lhr;
    if (!lhr) throw new Error('no result');
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const final = new URL(lhr.finalDisplayedUrl).pathname;
    if (final !== path) throw new Error(`ended on ${final} instead of ${path} (was the session refused?)`);
    return { lhr, json: result.report, load };
  } finally {
    // Gone before the next run asks for a port.
    const exited = new Promise((done) => chrome.process.once('exit', done));
    chrome.kill();
    await Promise.race([exited, new Promise((done) => setTimeout(done, 5000))]);
    chrome = null;
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function summary(lhr, load) {
  const score = (id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const num = (id) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcp: num('first-contentful-paint'),
    lcp: num('largest-contentful-paint'),
    tbt: num('total-blocking-time'),
    cls: num('cumulative-layout-shift'),
    si: num('speed-index'),
    load: load[0],
  };
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const millis = (ms) => `${Math.round(ms / 10) * 10} ms`;
const clsText = (cls) => (cls < 0.0005 ? '0' : cls.toFixed(3));

await startServer();
const owner = await seed();
console.log(`server ${bin} on ${origin}, serving ${join(serverRoot, 'assets')}; seeded`);
const session = { token: owner.token, user: owner.user };
if (jsonDir) mkdirSync(jsonDir, { recursive: true });

const started = new Date();
const results = Object.fromEntries(pages.map((p) => [p, []]));
for (let run = 1; run <= runs; run++) {
  for (const path of pages) {
    let outcome;
    try {
      outcome = await runOnce(path, signedInPages.has(path) ? session : null);
    } catch (error) {
      fail(`${path}, run ${run}: ${error.message}`);
    }
    const s = summary(outcome.lhr, outcome.load);
    results[path].push(s);
    if (jsonDir)
      writeFileSync(join(jsonDir, `${path === '/' ? 'root' : path.slice(1).replace(/\W+/g, '_')}-${run}.json`), outcome.json);
    console.log(
      `${path.padEnd(11)} run ${run}: performance ${String(s.performance).padStart(3)}  FCP ${seconds(s.fcp)}  LCP ${seconds(s.lcp)}` +
        `  TBT ${millis(s.tbt)}  CLS ${clsText(s.cls)}  a11y ${s.accessibility} bp ${s.bestPractices} seo ${s.seo}  (load ${s.load.toFixed(2)})`,
    );
  }
}

/** The run with the median performance score (the lower middle one of an even number). */
function medianRun(list) {
  const sorted = [...list].sort((a, b) => a.performance - b.performance || a.tbt - b.tbt);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

const version = JSON.parse(readFileSync(lhRequire.resolve('lighthouse/package.json'), 'utf8')).version;
const chromeVersion = spawnSync(env.CHROME_PATH || 'chromium', ['--version'], { encoding: 'utf8' }).stdout?.trim();
const rows = pages.map((path) => {
  const list = results[path];
  const m = medianRun(list);
  return [
    `\`${path}\``,
    `${list.map((r) => r.performance).join(', ')}: **${median(list.map((r) => r.performance))}**`,
    Math.min(...list.map((r) => r.accessibility)),
    Math.min(...list.map((r) => r.bestPractices)),
    Math.min(...list.map((r) => r.seo)),
    seconds(m.fcp),
    seconds(m.lcp),
    millis(m.tbt),
    clsText(m.cls),
    seconds(m.si),
    list.map((r) => r.load.toFixed(1)).join(', '),
  ];
});
const table = [
  '| Page | Performance (runs: median) | Accessibility | Best practices | SEO | FCP | LCP | TBT | CLS | Speed index | Load average (1 min) at each run |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ...rows.map((r) => `| ${r.join(' | ')} |`),
].join('\n');
const loads = pages.flatMap((path) => results[path].map((r) => r.load));
const markdown = `# Lighthouse, ${preset}

- ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, \`scripts/lighthouse\`: Lighthouse ${version}, ${chromeVersion?.split(' built')[0] ?? 'Chromium'},
  ${runs} run${runs === 1 ? '' : 's'} per page, the pages in turn, each in a new browser profile.
- ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GB of memory; load average (1 minute) during the runs: ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}.
- The server \`${bin}\` (LOCO_ENV=development, SQLite), serving \`${join(serverRoot, 'assets')}\`.
- Timings: the run with the median performance score. Accessibility, best practices, SEO: the lowest of the runs.

${table}
`;
console.log(`\n${table}`);
if (report) {
  writeFileSync(report, markdown);
  console.log(`\nwritten to ${report}`);
}
// The server would keep Node running: stop it (process.on('exit') above) and leave.
process.exit(0);
