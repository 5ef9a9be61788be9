/** @jsxImportSource preact */

/** The mark beside the name (the favicon's envelope). */
export function Mark() {
  return (
    <svg width="22" height="22" viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="#2f5bd3" />
      <path d="M7 10.5h18v11a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 7 21.5z" fill="#fff" />
      <path d="M7.5 11l8.5 6.5 8.5-6.5" fill="none" stroke="#2f5bd3" stroke-width="2" stroke-linejoin="round" />
    </svg>
  );
}
