import { useEffect, useState } from 'react';

/**
 * True from the first time `open` is: a dialog loaded on demand mounts then, and stays mounted so that it can
 * close with its transition. Until a manager opens one, the page does not load MUI's Modal for it (R-PERF-2).
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  useEffect(() => {
    if (open) setOpened(true);
  }, [open]);
  return opened || open;
}
