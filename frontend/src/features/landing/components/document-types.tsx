import {
  DocumentCheckIcon,
  DocumentDuplicateIcon,
  DocumentTextIcon,
  ReceiptPercentIcon,
  ShieldCheckIcon,
} from '@heroicons/react/24/outline';

const documentTypes = [
  {
    name: 'W-9',
    description: 'Taxpayer identification forms, collected once and kept on file for every vendor.',
    icon: DocumentTextIcon,
  },
  {
    name: 'Certificate of Insurance',
    description: 'General liability, workers compensation and automobile coverage, each with its own expiration date.',
    icon: ShieldCheckIcon,
  },
  {
    name: 'Sales Tax Certificates',
    description: 'Resale and exemption certificates, tracked so you know they are valid when you need them.',
    icon: ReceiptPercentIcon,
  },
  {
    name: 'Vendor Agreements',
    description: 'Signed contracts and master service agreements with their renewal dates.',
    icon: DocumentCheckIcon,
  },
  {
    name: 'Other',
    description: 'Licenses, permits, safety records: anything else a vendor has to keep current.',
    icon: DocumentDuplicateIcon,
  },
];

export function DocumentTypes() {
  return (
    <section id="documents" aria-labelledby="documents-title" className="scroll-mt-20 bg-white py-20">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold text-blue-600">Supported documents</p>
          <h2 id="documents-title" className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            Every document your vendors owe you
          </h2>
          <p className="mt-4 text-slate-600">Store, track and renew the paperwork that keeps your business protected.</p>
        </div>
        <ul className="mt-12 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {documentTypes.map(({ name, description, icon: Icon }) => (
            <li
              key={name}
              className="rounded-xl border border-slate-200 bg-slate-50/60 p-5 transition hover:border-blue-200 hover:bg-white hover:shadow-sm"
            >
              <div className="flex size-10 items-center justify-center rounded-lg bg-blue-600/10 text-blue-600">
                <Icon aria-hidden className="size-6" />
              </div>
              <h3 className="mt-4 font-semibold text-slate-900">{name}</h3>
              <p className="mt-2 text-sm text-slate-600">{description}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
