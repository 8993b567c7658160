// One GET answer held by a view: loaded on mount and again on `reload()`.
// A reload keeps the old data on screen until the new answer arrives, so live
// refreshes do not make tables flicker.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { getJson } from './http.js';

export interface Resource<T> {
  readonly data: T | null;
  readonly error: unknown;
  readonly loading: boolean;
  readonly reload: () => void;
}

export function useResource<T>(path: string | null): Resource<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(path !== null);
  const [generation, setGeneration] = useState(0);
  const currentPath = useRef(path);

  useEffect(() => {
    if (currentPath.current !== path) {
      currentPath.current = path;
      setData(null);
    }
    if (path === null) return undefined;
    const controller = new AbortController();
    setLoading(true);
    getJson<T>(path, { signal: controller.signal }).then(
      (answer) => {
        if (controller.signal.aborted) return;
        setData(answer);
        setError(null);
        setLoading(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        setError(failure);
        setLoading(false);
      },
    );
    return () => controller.abort();
  }, [path, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { data, error, loading, reload };
}
