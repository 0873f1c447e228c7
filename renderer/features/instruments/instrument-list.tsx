import { useQuery } from '@tanstack/react-query';
import { instrumentQueries } from './queries';

/** The instrument universe as a plain table (the walking skeleton's slice). */
export function InstrumentList() {
  const { data, error, isPending } = useQuery(instrumentQueries.list());
  if (isPending) return <p>Loading instruments…</p>;
  if (error) return <p role="alert">Could not load instruments: {error.message}</p>;
  return (
    <table aria-label="Instruments" className="grid">
      <thead>
        <tr>
          <th>Symbol</th>
          <th>Exchange</th>
          <th>Type</th>
          <th className="num">Lot</th>
          <th className="num">Tick</th>
          <th className="num">LTP</th>
        </tr>
      </thead>
      <tbody>
        {data.slice(0, 200).map((i) => (
          <tr key={i.instrumentToken}>
            <td>{i.tradingsymbol}</td>
            <td>{i.exchange}</td>
            <td>{i.instrumentType}</td>
            <td className="num">{i.lotSize}</td>
            <td className="num">{i.tickSize}</td>
            <td className="num">{i.lastPrice.toFixed(2)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
