// Many stream items in a row (a catch-up brings hundreds) should cause one
// refetch, not hundreds: the call runs once the items stop for `delayMs`.
import { useEffect, useRef } from 'preact/hooks';

export function useDebounced(callback: () => void, delayMs: number): () => void {
  const latest = useRef(callback);
  latest.current = callback;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const trigger = useRef(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => latest.current(), delayMs);
  });
  useEffect(() => () => clearTimeout(timer.current), []);
  return trigger.current;
}
