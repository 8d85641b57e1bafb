/** The shield mark; decorative, the product name beside it carries the meaning. Plain SVG: it is on the first load. */
export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <svg viewBox="0 0 64 64" aria-hidden="true" width={size} height={size} style={{ flexShrink: 0 }}>
      <path fill="currentColor" d="M32 4 8 13v17c0 15 10 26 24 30 14-4 24-15 24-30V13L32 4z" />
      <path fill="#fff" d="m27 40-9-9 4-4 5 5 15-15 4 4-19 19z" />
    </svg>
  );
}
