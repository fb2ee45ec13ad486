import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope, SuccessEnvelope } from '../../../src/contract/envelope.js';
import { leftBehind, type OfficeRuntime, officeRuntime } from './office-runtime.js';

function success(envelope: Envelope): SuccessEnvelope {
  if (!('checks' in envelope)) throw new Error(`expected a result, got ${JSON.stringify(envelope)}`);
  return envelope;
}

describe('convert_document', () => {
  let office: OfficeRuntime;
  let csv: string;
  let html: string;
  beforeAll(async () => {
    office = await officeRuntime();
    csv = join(office.work, 'stock.csv');
    writeFileSync(
      csv,
      'Item,Quantity,Warehouse\nLanterns,12,Karachi\nBlankets,40,Lahore\nKettles,7,Quetta\n',
    );
    html = join(office.work, 'memo.html');
    writeFileSync(
      html,
      '<html><body><h1>Quarterly memo</h1><p>Deliveries to Peshawar resumed on Monday.</p><p>Warehouse staffing remains unchanged.</p></body></html>',
    );
  });
  afterAll(async () => {
    const profile = office.office.profileDir;
    await office.close();
    expect(leftBehind(profile)).toEqual([]);
  });

  it('converts a spreadsheet to xlsx and checks it reopens with its text', async () => {
    const envelope = success(await office.runtime.invoke('convert_document', { path: csv, to: 'xlsx' }));
    expect(envelope.ok, JSON.stringify(envelope.checks)).toBe(true);
    expect(envelope.fields).toMatchObject({ format: 'xlsx', kind: 'calc' });
    expect(envelope.files.xlsx).toMatch(/convert_document\/stock\.xlsx$/);
    expect(envelope.checks.find((check) => check.name === 'text_present')?.detail).toMatch(
      /^All \d+ sampled words/,
    );
  });

  it('converts a document to PDF and counts its pages', async () => {
    const envelope = success(await office.runtime.invoke('convert_document', { path: html, to: 'pdf' }));
    expect(envelope.ok, JSON.stringify(envelope.checks)).toBe(true);
    expect(envelope.fields).toMatchObject({ format: 'pdf', kind: 'writer', pages: 1 });
  });

  it('writes what LibreOffice converts owner-only, from a readable source too', async () => {
    const envelope = success(await office.runtime.invoke('convert_document', { path: html, to: 'odt' }));
    expect(statSync(html).mode & 0o777).toBe(0o644);
    expect(statSync(envelope.files.odt!).mode & 0o777).toBe(0o600);
  });

  it('refuses a format the document kind cannot be written as, naming the ones it can', async () => {
    const envelope = await office.runtime.invoke('convert_document', { path: csv, to: 'pptx' });
    expect('error' in envelope && envelope.error.code).toBe('BAD_INPUT');
    if ('error' in envelope) expect(envelope.error.hint).toContain('xlsx');
  });

  it('answers NOT_FOUND for a missing file', async () => {
    const envelope = await office.runtime.invoke('convert_document', {
      path: join(office.work, 'nope.docx'),
      to: 'pdf',
    });
    expect('error' in envelope && envelope.error.code).toBe('NOT_FOUND');
  });
});
