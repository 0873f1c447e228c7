import { useState } from 'react';
import { describeError } from '../../lib/describe-error';
import { useImportCsv } from './queries';

/**
 * Import from a Zerodha Console tradebook (docs/journal.md §Import and export): the file is read
 * in the page and its text sent to main, which parses it; each line that cannot be read is named.
 * Console writes no product, so the trader says whether the equity trades were delivery or intraday.
 */
export function JournalImport() {
  const [product, setProduct] = useState<'CNC' | 'MIS'>('CNC');
  const importCsv = useImportCsv();
  const [readError, setReadError] = useState<string | null>(null);
  const result = importCsv.data;
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
            ? `Imported ${result.added} fill${result.added === 1 ? '' : 's'}${result.duplicates ? `, ${result.duplicates} already in the journal` : ''}${result.rejected.length ? `; ${result.rejected.length} line${result.rejected.length === 1 ? '' : 's'} not read` : ''}`
            : ''}
      </span>
      {importCsv.error || readError ? (
        <span role="alert" className="inline-error small">
          Not imported: {readError ?? describeError(importCsv.error)}
        </span>
      ) : null}
      {result && result.rejected.length > 0 ? (
        <ul className="jimport__rejected small">
          {result.rejected.slice(0, 5).map((r) => (
            <li key={r.line}>
              Line {r.line}: {r.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
