/**
 * The i18n keys of the messages the editor model raises (texts in web/src/i18n/locales, section
 * `editor`; zh_cn word for word from 001 §8). The host shows them as toasts.
 */
export const messageKeys = [
  // 请选择组件: copy, cut or paste with nothing selected or copied.
  'editor.messages.selectComponent',
  // 已经到顶了 / 已经到底了: layer limits.
  'editor.messages.atTop',
  'editor.messages.atBottom',
  // 机房背景图不可缺少！: save without a background picture.
  'editor.messages.backgroundRequired',
] as const;

export type MessageKey = (typeof messageKeys)[number];
