import type { Handlers } from '../dispatcher';
import type { JournalService } from '../journal/journal-service';

/** `journal.*`: the logged-in profile's journal (docs/journal.md), kept in main. */
export function journalHandlers(
  journal: JournalService,
): Pick<
  Handlers,
  'journal.view' | 'journal.sync' | 'journal.update' | 'journal.picture' | 'journal.importCsv' | 'journal.moveAside'
> {
  return {
    'journal.view': async (range) => journal.view(range ?? {}),
    'journal.sync': async () => journal.sync(),
    'journal.update': async ({ tradeId, notes }) => journal.update(tradeId, notes),
    'journal.picture': async ({ tradeId }) => journal.picture(tradeId),
    'journal.importCsv': async ({ csv, equityProduct }) => journal.importCsv(csv, equityProduct),
    'journal.moveAside': async () => journal.moveAside(),
  };
}
