/** Korean workplaces, and the law's deadlines, count in Korean time whatever the server's zone. */
const SEOUL = new Intl.DateTimeFormat('ko-KR', {
  timeZone: 'Asia/Seoul',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** `2026. 11. 23. 18:03 (KST)`: a moment in Korean time, labelled, for documents that leave the screen. */
export function formatSeoul(value: string | Date): string {
  return `${SEOUL.format(new Date(value))} (KST)`;
}
