'use client';

import { useState } from 'react';

/** Copies `text` to the clipboard and says whether it worked (in words, for screen readers too). */
export function CopyButton({ text, label = 'Copy', small = false }: { text: string; label?: string; small?: boolean }) {
  const [status, setStatus] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setStatus('copied');
    } catch {
      setStatus('failed');
    }
  }
  return (
    <span className="copy">
      <button type="button" className={small ? 'button small' : 'button'} onClick={copy}>
        {label}
      </button>
      <span role="status" className="copy-status">
        {status === 'copied' ? 'Copied' : status === 'failed' ? 'Copy failed: select the text and copy it' : ''}
      </span>
    </span>
  );
}
