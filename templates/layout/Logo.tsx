/** The Mendwise mark: a needle and thread forming a loop. Decorative; the link carries the name. */
export function Logo() {
  return (
    <svg className="logo-mark" width="32" height="32" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="currentColor" />
      <path d="M9 22c0-6 3-11 7-11s7 5 7 11" fill="none" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
      <path d="M16 11V6" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
      <circle cx="16" cy="24" r="2" fill="#fff" />
    </svg>
  );
}
