/**
 * A handle to a stand-in a `beforeAll` starts: usable from the tests on, where it reads through to
 * `current()` (methods bound to it); `what` names it when read too early.
 */
export function startedLater<T extends object>(what: string, current: () => T | undefined): T {
  return new Proxy({} as T, {
    get: (_target, name) => {
      const standIn = current();
      if (!standIn) throw new Error(`${what} starts in beforeAll`);
      const value = standIn[name as keyof T];
      return typeof value === 'function' ? value.bind(standIn) : value;
    },
    set: (_target, name, value) => Reflect.set(current()!, name, value),
  });
}
