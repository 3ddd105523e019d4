/** A static sample certificate of liability insurance: illustration only, no real data. */
const coverages = [
  {
    type: 'Commercial General Liability',
    policy: 'GL-4471-2025',
    effective: '01/01/2025',
    expires: '01/01/2026',
    limit: '$1,000,000 each occurrence',
  },
  {
    type: 'Automobile Liability',
    policy: 'AU-2290-2025',
    effective: '01/01/2025',
    expires: '01/01/2026',
    limit: '$1,000,000 combined single limit',
  },
  {
    type: "Workers' Compensation",
    policy: 'WC-8812-2025',
    effective: '01/01/2025',
    expires: '01/01/2026',
    limit: '$500,000 each accident',
  },
];

export function SampleCertificate({ id }: { id: string }) {
  return (
    <article
      className="mx-auto max-w-4xl rounded-lg border border-slate-300 bg-white p-6 font-serif text-slate-900 shadow-sm sm:p-10"
      aria-label="Sample certificate"
    >
      <header className="flex flex-col gap-2 border-b-2 border-slate-900 pb-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-xs tracking-widest text-slate-500 uppercase">Sample document</p>
          <h1 className="text-2xl font-bold">Certificate of Liability Insurance</h1>
        </div>
        <dl className="text-sm">
          <div className="flex gap-2">
            <dt className="text-slate-500">Certificate No.</dt>
            <dd className="font-semibold">{id}</dd>
          </div>
          <div className="flex gap-2">
            <dt className="text-slate-500">Date issued</dt>
            <dd>01/01/2025</dd>
          </div>
        </dl>
      </header>
      <p className="mt-4 text-xs text-slate-600">
        This certificate is issued as a matter of information only and confers no rights upon the certificate holder. It does not
        amend, extend or alter the coverage afforded by the policies below.
      </p>
      <div className="mt-6 grid gap-6 sm:grid-cols-2">
        <section>
          <h2 className="text-xs font-bold tracking-wide text-slate-500 uppercase">Producer</h2>
          <p className="mt-1 text-sm">
            Example Insurance Agency
            <br />
            100 Market Street
            <br />
            Springfield, ST 00000
          </p>
        </section>
        <section>
          <h2 className="text-xs font-bold tracking-wide text-slate-500 uppercase">Insured</h2>
          <p className="mt-1 text-sm">
            Sample Vendor LLC
            <br />
            200 Commerce Avenue
            <br />
            Springfield, ST 00000
          </p>
        </section>
      </div>
      {/* Focusable, so a keyboard can scroll the table on a narrow screen. */}
      <div
        role="region"
        aria-label="Coverages"
        tabIndex={0}
        className="mt-6 overflow-x-auto focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
      >
        <table className="min-w-full border border-slate-300 text-left text-sm">
          <thead className="bg-slate-100 font-sans text-xs uppercase">
            <tr>
              <th className="border border-slate-300 px-3 py-2">Type of insurance</th>
              <th className="border border-slate-300 px-3 py-2">Policy number</th>
              <th className="border border-slate-300 px-3 py-2">Effective</th>
              <th className="border border-slate-300 px-3 py-2">Expires</th>
              <th className="border border-slate-300 px-3 py-2">Limits</th>
            </tr>
          </thead>
          <tbody>
            {coverages.map((c) => (
              <tr key={c.policy}>
                <td className="border border-slate-300 px-3 py-2 font-semibold">{c.type}</td>
                <td className="border border-slate-300 px-3 py-2">{c.policy}</td>
                <td className="border border-slate-300 px-3 py-2">{c.effective}</td>
                <td className="border border-slate-300 px-3 py-2">{c.expires}</td>
                <td className="border border-slate-300 px-3 py-2">{c.limit}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mt-6 grid gap-6 sm:grid-cols-2">
        <section>
          <h2 className="text-xs font-bold tracking-wide text-slate-500 uppercase">Certificate holder</h2>
          <p className="mt-1 text-sm">
            Your Company Inc.
            <br />
            300 Main Street
            <br />
            Springfield, ST 00000
          </p>
        </section>
        <section>
          <h2 className="text-xs font-bold tracking-wide text-slate-500 uppercase">Authorized representative</h2>
          <p className="mt-6 border-t border-slate-400 pt-1 text-sm italic">Signature on file</p>
        </section>
      </div>
    </article>
  );
}
