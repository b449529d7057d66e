'use client';

import { useEffect, useRef, type FormEvent } from 'react';

/**
 * Keeps what was typed in fields the server never sends back (a password) when an action answers
 * with errors: React resets a form after its action, and the value is not part of the returned
 * state on purpose. The fields are the form's inputs with `data-keep`; their values stay in this
 * component's memory only, and are dropped once the form succeeds.
 */
export function useKeepTyped(state: { errors?: Record<string, string> }) {
  const kept = useRef<Map<string, string>>(new Map());
  const form = useRef<HTMLFormElement>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    kept.current = new Map([...event.currentTarget.querySelectorAll<HTMLInputElement>('input[data-keep]')].map((input) => [input.name, input.value]));
  };
  useEffect(() => {
    if (!state.errors) {
      kept.current.clear();
      return;
    }
    for (const [name, value] of kept.current) {
      const input = form.current?.querySelector<HTMLInputElement>(`input[data-keep][name="${CSS.escape(name)}"]`);
      if (input && !input.value) input.value = value;
    }
  }, [state]);
  return { ref: form, onSubmit };
}
