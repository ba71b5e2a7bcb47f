import { beforeEach, describe, expect, it } from 'vitest';
import { type Tab, useTabs } from './tabs.ts';

const tab = (id: string): Tab => ({ id, name: id, label: id.toUpperCase(), url: `/${id}` });

describe('tab strip rules (000 §2.4)', () => {
  beforeEach(() => {
    localStorage.clear();
    useTabs.setState({ tabs: [], activeId: null });
  });

  it('opens each page once and keeps tabs and the active id in local storage', () => {
    const { open } = useTabs.getState();
    open(tab('a'));
    open(tab('b'));
    open(tab('a'));
    expect(useTabs.getState().tabs.map((t) => t.id)).toEqual(['a', 'b']);
    expect(useTabs.getState().activeId).toBe('a');
    expect(JSON.parse(localStorage.getItem('tabs') ?? '[]')).toHaveLength(2);
    expect(localStorage.getItem('activeTabId')).toBe('a');
  });

  it('closing the current tab activates the next one, or the previous at the end', () => {
    const { open, close } = useTabs.getState();
    for (const id of ['a', 'b', 'c']) open(tab(id));
    open(tab('b'));
    expect(close('b', null)?.id).toBe('c');
    expect(close('c', null)?.id).toBe('a');
  });

  it('the last tab is never removed: closing it resets to the first page', () => {
    const { open, close } = useTabs.getState();
    open(tab('x'));
    expect(close('x', tab('home'))?.id).toBe('home');
    expect(useTabs.getState().tabs.map((t) => t.id)).toEqual(['home']);
  });

  it('close others and close all', () => {
    const { open, closeOthers, closeAll } = useTabs.getState();
    for (const id of ['a', 'b', 'c']) open(tab(id));
    closeOthers('b');
    expect(useTabs.getState().tabs.map((t) => t.id)).toEqual(['b']);
    closeAll(tab('first'));
    expect(useTabs.getState().tabs.map((t) => t.id)).toEqual(['first']);
  });

  it('drops tabs that are no longer enabled, except config_menu tabs', () => {
    const { open, prune } = useTabs.getState();
    open(tab('a'));
    open({ id: '9', name: 'cfg', label: 'cfg', url: '/config_menu?id=9' });
    open(tab('gone'));
    prune(new Set(['a']));
    expect(useTabs.getState().tabs.map((t) => t.id)).toEqual(['a', '9']);
  });

  it('belongs to the user: another user gets their own strip, and the first gets theirs back', () => {
    const { open, belongTo } = useTabs.getState();
    belongTo(1);
    open(tab('a'));
    open(tab('b'));
    belongTo(2);
    expect(useTabs.getState().tabs).toEqual([]);
    open(tab('c'));
    belongTo(1);
    expect(useTabs.getState().tabs.map((t) => t.id)).toEqual(['a', 'b']);
    expect(useTabs.getState().activeId).toBe('b');
    belongTo(2);
    expect(useTabs.getState().tabs.map((t) => t.id)).toEqual(['c']);
  });
});
