import type { ReactNode } from 'react';
import './console.css';

export default function ConsoleRootLayout({ children }: { children: ReactNode }) {
  return children;
}
