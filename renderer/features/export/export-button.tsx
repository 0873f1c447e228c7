import type { Book } from '@shared/trading/book-csv';
import { describeError } from '../../lib/describe-error';
import { useExportBook } from './use-export-book';

/**
 * A panel header's "CSV" button: exports that panel's book (docs/desk.md §CSV export). A failed
 * read says so next to the button, and that nothing was written.
 */
export function ExportButton({ book }: { readonly book: Book }) {
  const exporter = useExportBook();
  return (
    <>
      <button
        type="button"
        className="mini"
        aria-label={`Export ${book} as CSV`}
        title={`Export ${book} as CSV`}
        disabled={exporter.isPending}
        onClick={() => exporter.mutate(book)}
      >
        {exporter.isPending ? 'CSV…' : 'CSV'}
      </button>
      {exporter.error ? (
        <span role="alert" className="inline-error small">
          Export failed: {describeError(exporter.error)}; nothing was written
        </span>
      ) : null}
    </>
  );
}
