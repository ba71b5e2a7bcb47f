import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';

/**
 * The top bar's place for prompts beside the product name (the alarm sound and the folded alarm
 * notices): in the bar's flow, so that they never cover the clock or the bells (issue 38, seen at
 * 1366 × 768 in English). The shell renders an element with this id; a feature portals into it.
 */
export const topBarSlotId = 'top-bar-prompts';

/** The top bar's prompt slot, looked up again after each navigation (the bar is absent in fullShow). */
export const useTopBarSlot = () => {
  const { pathname, search } = useLocation();
  const [slot, setSlot] = useState<HTMLElement | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a navigation may mount or unmount the bar
  useEffect(() => setSlot(document.getElementById(topBarSlotId)), [pathname, search]);
  return slot;
};
