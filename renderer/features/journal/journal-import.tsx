import { useState } from 'react';
import { AppError } from '@shared/ipc/app-error';
import { kilobytes, MAX_IMPORT_CSV_BYTES } from '@shared/ipc/limits';
import { describeError } from '../../lib/describe-error';
import { useImportCsv } from './queries';

/**
 * Import from a Zerodha Console tradebook (docs/journal.md §Import and export): the file is read
 * in the page and its text sent to main, which parses it, all or nothing: a file with a line that
 * cannot be read imports nothing, and each such line is named.
 * Console writes no product, so the trader says whether the equity trades were delivery or intraday.
 */
/** A refusal in one sentence: main's all-or-nothing refusal already says "Nothing imported". */
const notImported = (why: string): string => (/^Nothing imported/.test(why) ? why : `Not imported: ${why}`);

export function JournalImport() {
  const [product, setProduct] = useState<'CNC' | 'MIS'>('CNC');
  const importCsv = useImportCsv();
  const [readError, setReadError] = useState<string | null>(null);
  const result = importCsv.data;
  // An import is all or nothing: a refused file names each line that cannot be read.
  const badLines = importCsv.error instanceof AppError ? (importCsv.error.info.fields ?? []) : [];
  return (
    <div className="jimport">
      <label className="small">
        Equity trades were{' '}
        <select
          aria-label="Equity trades were"
          value={product}
          onChange={(e) => setProduct(e.target.value === 'MIS' ? 'MIS' : 'CNC')}
        >
          <option value="CNC">delivery (CNC)</option>
          <option value="MIS">intraday (MIS)</option>
        </select>
      </label>
      <label className="button-like small">
        Import Console tradebook…
        <input
          type="file"
          accept=".csv,text/csv"
          className="sr-only"
          aria-label="Import a Console tradebook CSV"
          disabled={importCsv.isPending}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file) return;
            setReadError(null);
            // One limit everywhere (docs/journal.md §Import and export): refused before it is read or sent.
            if (file.size > MAX_IMPORT_CSV_BYTES) {
              importCsv.reset();
              setReadError(
                `${file.name} is ${kilobytes(file.size)}; at most ${kilobytes(MAX_IMPORT_CSV_BYTES)} can be imported at once: export a shorter range`,
              );
              return;
            }
            file.text().then(
              (csv) => importCsv.mutate({ csv, equityProduct: product }),
              (err: unknown) => setReadError(describeError(err)),
            );
          }}
        />
      </label>
      <span role="status" className="small">
        {importCsv.isPending
          ? 'Importing…'
          : result
            ? `Imported ${result.added} fill${result.added === 1 ? '' : 's'}${result.duplicates ? `, ${result.duplicates} already in the journal` : ''}`
            : ''}
      </span>
      {importCsv.error || readError ? (
        <span role="alert" className="inline-error small">
          {notImported(readError ?? describeError(importCsv.error))}
        </span>
      ) : null}
      {badLines.length > 0 ? (
        <ul className="jimport__rejected small">
          {badLines.slice(0, 5).map((f) => (
            <li key={f.field}>
              {f.field.replace(/^lines\.(\d+)\.(.+)$/, 'Line $1, $2')}: {f.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
