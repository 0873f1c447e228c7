import { useEffect, useState } from 'react';

/**
 * `value`, settled for `ms` milliseconds (compared by JSON, so a re-created but equal object
 * does not restart the wait). The ticket asks for margin only once typing pauses, instead of
 * spending the broker's rate limit on every keystroke.
 */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(JSON.parse(key) as T), ms);
    return () => clearTimeout(t);
  }, [key, ms]);
  return settled;
}
