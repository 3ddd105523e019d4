import { SERVICE_TYPES } from '@/lib/domain/service-types';
import { formatServiceType } from '@/lib/format';
import type {
  ErrorEnvelope,
  Vendor,
  VendorImportColumn,
  VendorImportField,
  VendorImportResult,
  VendorImportRow,
} from '@/types/api';
import { accountFromRequest, db } from './db';
import { buildVendor } from './fixtures';

/**
 * POST /api/vendors/import as the server answers it (src/models/vendor_import), small enough for
 * the tests: the bytes decoded (UTF-8, else Windows-1252), the delimiter and the header row found,
 * the columns guessed from their headers and changed by `mapping`, `defaults`, every problem of a
 * row, duplicates by email, the plan's room. One function for the MSW handler and for the tests'
 * XMLHttpRequest stand-in (src/testing/fake-xhr.ts), which MSW cannot serve a File through.
 */

export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

export type ImportForm = {
  file: Uint8Array | null;
  commit: boolean;
  mapping: string | null;
  defaults: string | null;
};

export type ImportReply = { status: number; body: VendorImportResult | ErrorEnvelope };

const LABELS: Record<VendorImportField, string> = {
  name: 'Vendor name',
  email: 'Contact email',
  serviceType: 'Service type',
  phone: 'Phone',
  address: 'Address',
  city: 'City',
  state: 'State',
  zipCode: 'Zip code',
  notes: 'Notes',
  requirementSet: 'Requirement set',
};
const FIELDS = Object.keys(LABELS) as VendorImportField[];
/** Fields several columns may fill: address lines are joined, notes kept one a line. */
const MANY: VendorImportField[] = ['address', 'notes'];

const key = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

const GUESSES: Record<string, VendorImportField> = {
  vendor: 'name',
  vendorname: 'name',
  name: 'name',
  company: 'name',
  companyname: 'name',
  contactname: 'name',
  supplier: 'name',
  email: 'email',
  emailaddress: 'email',
  contactemail: 'email',
  servicetype: 'serviceType',
  service: 'serviceType',
  trade: 'serviceType',
  phone: 'phone',
  phonenumber: 'phone',
  address: 'address',
  street: 'address',
  address1: 'address',
  address2: 'address',
  city: 'city',
  state: 'state',
  zip: 'zipCode',
  zipcode: 'zipCode',
  postalcode: 'zipCode',
  notes: 'notes',
  note: 'notes',
  memo: 'notes',
  requirementset: 'requirementSet',
  requirements: 'requirementSet',
};

const guess = (header: string): VendorImportField | null => GUESSES[key(header)] ?? null;

const invalid = (field: string, messages: string[]): ImportReply => ({
  status: 422,
  body: { error: 'validation_failed', message: messages[0] ?? 'The import could not be read.', errors: { [field]: messages } },
});

/** A File's bytes, whichever FormData it came from (jsdom's File has no arrayBuffer()). */
async function bytesOf(blob: Blob): Promise<Uint8Array> {
  if (typeof blob.arrayBuffer === 'function') return new Uint8Array(await blob.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('Unreadable file'));
    reader.readAsArrayBuffer(blob);
  });
}

export async function readImportForm(form: FormData): Promise<ImportForm> {
  const file = form.get('file');
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' && value.trim() !== '' ? value : null;
  };
  return {
    file: file !== null && typeof file !== 'string' ? await bytesOf(file) : null,
    commit: text('commit') === 'true',
    mapping: text('mapping'),
    defaults: text('defaults'),
  };
}

function decode(bytes: Uint8Array): { text: string; encoding: string } {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(bom)), encoding: 'UTF-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}

/** One line's cells; quotes may hold the delimiter (not a line break: enough for the tests). */
function cellsOf(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === delimiter) {
      cells.push(cell.trim());
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}

function serviceType(value: string): string | null {
  return SERVICE_TYPES.find((code) => key(code) === key(value) || key(formatServiceType(code)) === key(value)) ?? null;
}

function requirementSet(value: string): string | null {
  const found = db.requirementSets.find((set) => set.id === value.trim() || key(set.name) === key(value));
  return found?.id ?? null;
}

const planName = () => (db.plan.plan === 'professional' ? 'Professional' : 'Free');

export function judgeImport(request: Request, form: ImportForm): ImportReply {
  if (!accountFromRequest(request)) {
    return { status: 401, body: { error: 'unauthorized', message: 'You need to sign in to continue.' } };
  }
  const bytes = form.file;
  if (!bytes || bytes.length === 0) return invalid('file', ['Choose a CSV file to import.']);
  if (bytes.length > MAX_IMPORT_BYTES) {
    return { status: 413, body: { error: 'payload_too_large', message: 'The upload is too large: at most 5 MB.' } };
  }
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 3 && bytes[3] === 4) {
    return invalid('file', ['This is an Excel workbook (.xlsx), not a CSV file.']);
  }
  const { text, encoding } = decode(bytes);
  const lines = text.split(/\r?\n/).map((line, index) => ({ line: index + 1, text: line }));
  const filled = lines.filter((l) => l.text.trim() !== '');
  const widest = (d: string) => Math.max(0, ...filled.slice(0, 5).map((l) => cellsOf(l.text, d).length));
  const delimiter = [',', ';', '\t'].reduce((best, d) => (widest(d) > widest(best) ? d : best), ',');
  const records = filled.map((l) => ({ line: l.line, cells: cellsOf(l.text, delimiter) }));
  const headerAt = records.slice(0, 20).findIndex(({ cells }) => {
    const fields = cells.map(guess).filter(Boolean);
    return fields.includes('name') || fields.length >= 2;
  });
  if (headerAt < 0) return invalid('file', ['The file has no header row naming its columns (such as Name and Email).']);
  const { line: headerLine, cells: headers } = records[headerAt]!;
  const data = records.slice(headerAt + 1).filter(({ cells }) => cells.some((c) => c !== ''));
  if (data.length === 0) return invalid('file', ['The file has no vendor rows.']);

  // The guess (one column a field, but for address and notes), then the person's mapping over it.
  const taken = new Set<VendorImportField>();
  const guessed = headers.map((header) => {
    const field = guess(header);
    if (!field || (!MANY.includes(field) && taken.has(field))) return null;
    taken.add(field);
    return field;
  });
  let chosen: Record<string, VendorImportField | null> = {};
  if (form.mapping) {
    try {
      chosen = JSON.parse(form.mapping) as typeof chosen;
    } catch {
      return invalid('mapping', ['The mapping must be a JSON object of column headers to field names or null.']);
    }
  }
  const problems: string[] = [];
  for (const header of Object.keys(chosen)) {
    if (!headers.includes(header)) problems.push(`The file has no column "${header}".`);
  }
  const mapped = headers.map((header, i) => {
    if (!(header in chosen)) return guessed[i] ?? null;
    const field = chosen[header] ?? null;
    if (field !== null && !FIELDS.includes(field)) {
      problems.push(`"${field}" is not a vendor field (column "${header}").`);
      return null;
    }
    return field;
  });
  for (const field of FIELDS.filter((f) => !MANY.includes(f))) {
    const from = headers.filter((_, i) => mapped[i] === field);
    if (from.length > 1) {
      problems.push(
        `${LABELS[field]} is filled from ${from.length} columns (${from.map((h) => `"${h}"`).join(', ')}); choose one.`,
      );
    }
  }
  if (problems.length > 0) return invalid('mapping', problems);

  const defaults = form.defaults ? (JSON.parse(form.defaults) as { serviceType?: string; requirementSet?: string }) : {};
  const defaultService = defaults.serviceType ? serviceType(defaults.serviceType) : null;
  if (defaults.serviceType && !defaultService) {
    return invalid('defaults.serviceType', [`Service type "${defaults.serviceType}" is not one we know.`]);
  }
  const defaultSet = defaults.requirementSet ? requirementSet(defaults.requirementSet) : null;
  if (defaults.requirementSet && !defaultSet) {
    return invalid('defaults.requirementSet', [`There is no requirement set named "${defaults.requirementSet}".`]);
  }

  const notesColumns = mapped.filter((field) => field === 'notes').length;
  const emails = new Map<string, number>(db.vendors.map((v) => [v.email.toLowerCase(), 0]));
  const room = Math.max(0, db.plan.vendorLimit - db.vendors.length);
  const message = `${planName()} accounts are limited to ${db.plan.vendorLimit} vendors maximum.`;
  const creating: { name: string; email: string; serviceType: string; requirementSetId: string | null; notes: string | null }[] =
    [];
  const rows = data.map<VendorImportRow>(({ line, cells }) => {
    const errors: string[] = [];
    const values = { name: '', email: '', serviceType: '', requirementSetId: null as string | null };
    const notes: string[] = [];
    let serviceNamed = false;
    mapped.forEach((field, i) => {
      const value = cells[i] ?? '';
      if (!field || value === '') return;
      if (field === 'name') values.name = value;
      else if (field === 'email') values.email = value;
      else if (field === 'serviceType') {
        serviceNamed = true;
        const code = serviceType(value);
        if (code) values.serviceType = code;
        else {
          errors.push(
            `Service type "${value}" is not one we know. Use one of: ${SERVICE_TYPES.map(formatServiceType).join(', ')}.`,
          );
        }
      } else if (field === 'requirementSet') {
        const set = requirementSet(value);
        if (set) values.requirementSetId = set;
        else errors.push(`There is no requirement set named "${value}".`);
      } else if (field === 'notes') {
        notes.push(notesColumns === 1 && guess(headers[i]!) === 'notes' ? value : `${headers[i]}: ${value}`);
      }
    });
    if (!serviceNamed && defaultService) values.serviceType = defaultService;
    values.requirementSetId ??= defaultSet;
    if (!values.name) errors.push('Vendor name is required');
    if (!values.email) errors.push('Contact email is required');
    else if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(values.email)) errors.push('Invalid email address');
    if (!serviceNamed && !values.serviceType) errors.push('Service type is required');
    const email = values.email.toLowerCase();
    const row: VendorImportRow = { line, status: 'create', name: values.name, email, errors: [] };
    const twin = email ? emails.get(email) : undefined;
    if (email && !emails.has(email)) emails.set(email, line);
    if (twin !== undefined) {
      const first = twin === 0 ? 'A vendor with this email already exists.' : `Line ${twin} has the same email.`;
      return { ...row, status: 'duplicate', errors: [first, ...errors] };
    }
    if (errors.length > 0) return { ...row, status: 'error', errors };
    if (creating.length >= room) return { ...row, status: 'error', errors: [message] };
    creating.push({ ...values, notes: notes.length ? notes.join('\n') : null });
    return row;
  });
  if (form.commit) {
    for (const vendor of creating)
      db.vendors.push(buildVendor({ ...vendor, serviceType: vendor.serviceType as Vendor['serviceType'] }));
  }
  const columns: VendorImportColumn[] = headers.map((header, i) => ({
    header,
    field: mapped[i] ?? null,
    sample: data.map(({ cells }) => cells[i] ?? '').find((cell) => cell !== '') ?? '',
  }));
  return {
    status: 200,
    body: {
      encoding,
      delimiter,
      headerLine,
      columns,
      ignoredColumns: columns.filter((c) => !c.field && !(c.header === '' && c.sample === '')).map((c) => c.header),
      rows,
      wouldCreate: creating.length,
      created: form.commit ? creating.length : 0,
      vendorLimit: {
        allowed: db.plan.vendorLimit,
        existing: db.vendors.length - (form.commit ? creating.length : 0),
        room,
        message,
      },
    },
  };
}

/** The answer to the tests' XMLHttpRequest stand-in (src/testing/fake-xhr.ts), as the handler gives it. */
export async function answerImportXhr(xhr: { url: string; headers: Record<string, string>; body: FormData | null }) {
  const form = await readImportForm(xhr.body ?? new FormData());
  return judgeImport(new Request(xhr.url, { headers: xhr.headers }), form);
}
