/**
 * An object whose every entry is built on its first read and kept: a handler constructs only
 * the adapters it touches. Each maker gets the object itself, for entries built from others.
 */
export function lazily<T extends object>(makers: { readonly [K in keyof T]: (self: T) => T[K] }): T {
  const out = {} as T;
  for (const key of Object.keys(makers) as (keyof T & string)[]) {
    Object.defineProperty(out, key, {
      enumerable: true,
      configurable: true,
      get() {
        const value = makers[key](out);
        Object.defineProperty(out, key, { value, enumerable: true });
        return value;
      },
    });
  }
  return out;
}

/**
 * The same object with some entries made again (lazily, from `makers`) and every other entry
 * taken from `base` at its first read: the adapters of one process at a group's own clock.
 */
export function rebound<T extends object>(base: T, makers: { readonly [K in keyof T]?: (self: T) => T[K] }): T {
  const all = Object.fromEntries((Object.keys(base) as (keyof T & string)[]).map((key) => [key, makers[key] ?? (() => base[key])]));
  return lazily(all as { readonly [K in keyof T]: (self: T) => T[K] });
}

/** A value made on first use and kept (a client shared by several adapters). */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/**
 * A port whose adapter, and the SDK client behind it, load at its first call. For ports whose
 * every method returns a promise (queues, the document store): the module loads behind a
 * dynamic import, so a function that never calls the port never loads its SDK (bundled SDK
 * modules are evaluated at their first import, not at the function's start). A load that
 * fails is tried again at the next call.
 */
export function onFirstCall<T extends object>(load: () => Promise<T>): T {
  let loading: Promise<T> | undefined;
  const loaded = () => {
    loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
    return loading;
  };
  return new Proxy({} as T, {
    get(_target, name) {
      // Not a thenable: `await port` must give the port, not call into it.
      if (typeof name === 'symbol' || name === 'then') return undefined;
      return async (...args: unknown[]) => {
        const port = await loaded();
        return (port[name as keyof T] as (...a: unknown[]) => unknown).apply(port, args);
      };
    },
  });
}
