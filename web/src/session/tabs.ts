import { create } from 'zustand';

/** A tab of the strip (000 §3): id, name, label, url. */
export interface Tab {
  id: string;
  name: string;
  label: string;
  url: string;
}

const tabsKey = 'tabs';
const activeKey = 'activeTabId';
/** Whose strip `tabs` holds: another user signing in on this browser gets their own. */
const ownerKey = 'tabsOwner';
const stashKey = (userId: string) => `tabs:${userId}`;

const load = (): { tabs: Tab[]; activeId: string | null } => {
  try {
    const tabs = JSON.parse(localStorage.getItem(tabsKey) ?? '[]') as Tab[];
    return { tabs: Array.isArray(tabs) ? tabs : [], activeId: localStorage.getItem(activeKey) };
  } catch {
    return { tabs: [], activeId: null };
  }
};

const save = (tabs: Tab[], activeId: string | null) => {
  localStorage.setItem(tabsKey, JSON.stringify(tabs));
  if (activeId) localStorage.setItem(activeKey, activeId);
  else localStorage.removeItem(activeKey);
};

interface Tabs {
  tabs: Tab[];
  activeId: string | null;
  /** Opens a tab or selects it when open. */
  open(tab: Tab): void;
  /**
   * Closes a tab; the current one hands over to the next (or previous). The last tab is never
   * removed: closing it resets the strip to the first page.
   */
  close(id: string, firstPage: Tab | null): Tab | null;
  closeOthers(id: string): void;
  closeAll(firstPage: Tab | null): Tab | null;
  /** Drops tabs whose ids are no longer enabled, except config_menu tabs (000 §2.4). */
  prune(enabledIds: Set<string>): void;
  /**
   * Makes the strip the signed-in user's: a different user than the last one on this browser gets
   * the tabs they had here (or none), and the previous user's are kept aside for their return.
   */
  belongTo(userId: number): void;
}

export const useTabs = create<Tabs>((set, get) => {
  const commit = (tabs: Tab[], activeId: string | null) => {
    save(tabs, activeId);
    set({ tabs, activeId });
  };
  return {
    ...load(),
    open(tab) {
      const { tabs } = get();
      const existing = tabs.find((t) => t.id === tab.id);
      commit(existing ? tabs.map((t) => (t.id === tab.id ? { ...t, url: tab.url } : t)) : [...tabs, tab], tab.id);
    },
    close(id, firstPage) {
      const { tabs, activeId } = get();
      if (tabs.length <= 1) {
        const reset = firstPage ? [firstPage] : tabs;
        commit(reset, reset[0]?.id ?? null);
        return reset[0] ?? null;
      }
      const index = tabs.findIndex((t) => t.id === id);
      const rest = tabs.filter((t) => t.id !== id);
      const next =
        activeId === id ? (rest[index] ?? rest[index - 1] ?? null) : (rest.find((t) => t.id === activeId) ?? null);
      commit(rest, next?.id ?? null);
      return next;
    },
    closeOthers(id) {
      const keep = get().tabs.filter((t) => t.id === id);
      commit(keep, keep[0]?.id ?? null);
    },
    closeAll(firstPage) {
      const reset = firstPage ? [firstPage] : [];
      commit(reset, reset[0]?.id ?? null);
      return reset[0] ?? null;
    },
    belongTo(userId) {
      const owner = localStorage.getItem(ownerKey);
      const next = String(userId);
      if (owner === next) return;
      // A strip saved before tabs had owners is the signing-in user's.
      if (owner === null) return localStorage.setItem(ownerKey, next);
      const { tabs, activeId } = get();
      if (owner) localStorage.setItem(stashKey(owner), JSON.stringify({ tabs, activeId }));
      let mine: { tabs: Tab[]; activeId: string | null } = { tabs: [], activeId: null };
      try {
        const stashed = JSON.parse(localStorage.getItem(stashKey(next)) ?? 'null');
        if (stashed && Array.isArray(stashed.tabs)) mine = stashed;
      } catch {}
      localStorage.removeItem(stashKey(next));
      localStorage.setItem(ownerKey, next);
      commit(mine.tabs, mine.activeId);
    },
    prune(enabledIds) {
      const { tabs, activeId } = get();
      const kept = tabs.filter((t) => enabledIds.has(t.id) || t.url.includes('config_menu'));
      if (kept.length !== tabs.length)
        commit(kept, kept.some((t) => t.id === activeId) ? activeId : (kept[0]?.id ?? null));
    },
  };
});
