import { monitorState } from '@sitewatch/contract/monitoring';
import type { EventBus } from '../bus/bus.ts';
import type { AlarmLifecycle } from './lifecycle.ts';
import { feedJitter } from './rules/jitter.ts';
import { inPeriod } from './rules/periods.ts';
import { feedRepetition } from './rules/repetitions.ts';
import { isProblem, thresholdState } from './rules/threshold.ts';
import type { DeviceRuntime, EngineState } from './state.ts';

const alarmStates = new Set<number>([monitorState.abnormal, monitorState.warning, monitorState.serious]);

/**
 * The judging of each sample, and the state an item shows, decided here and nowhere else: no value
 * is unknown with its reason (a point fault after its repetitions, unless its device is down), a
 * value is judged by the threshold rule with hysteresis, then repetitions, check and alarm
 * periods and jitter; unknown wins over jitter, jitter over the threshold state. What is shown is
 * published as `item.state` when it changes, before any alarm the sample raises.
 */
export const createJudge = (deps: {
  state: EngineState;
  lifecycle: Pick<AlarmLifecycle, 'raise' | 'recover' | 'onJitter' | 'jitterSettings'>;
  bus: Pick<EventBus, 'publish'>;
  /** A sample of an item the engine does not hold yet (added a moment ago). */
  onUnknownItem: (itemId: number) => void;
}) => {
  const { items, periods, disabledItems, jitteringItems } = deps.state;
  const { raise, recover, onJitter, jitterSettings } = deps.lifecycle;

  // ---------- the state shown: decided here, published when it changes ----------

  /** `jitter N%` by percent: a jittering item's info, made once per percent rather than per sample. */
  const jitterTexts = new Map<number, string>();
  const jitterText = (percent: number) => {
    let text = jitterTexts.get(percent);
    if (text === undefined) {
      text = `jitter ${percent}%`;
      jitterTexts.set(percent, text);
    }
    return text;
  };

  /** Shows an item's state and why; published (`item.state`) when it, its info or its alarm flag change. */
  const show = (it: number, state: number, info: string, tsMs: number) => {
    const alarm = alarmStates.has(state) || items.alarm[it] !== null || items.fault[it] !== null ? 1 : 0;
    if (state === items.shown[it] && info === items.info[it] && alarm === items.shownAlarm[it]) return;
    items.shown[it] = state;
    items.info[it] = info;
    items.shownAlarm[it] = alarm;
    deps.bus.publish('item.state', { item_id: items.id[it]!, state, info, alarm: alarm === 1, ts_ms: tsMs });
  };
  /** The state a good value shows: jitter while the item flaps, else its threshold state. */
  const showValue = (it: number, judged: number, tsMs: number) => {
    if (items.jitter.jittering[it] === 1) show(it, monitorState.jitter, jitterText(items.jitter.percent[it]!), tsMs);
    else show(it, judged, '', tsMs);
  };
  /** After an alarm of the item opened or closed: its alarm flag. */
  const reshow = (it: number, tsMs: number) => show(it, items.shown[it]!, items.info[it]!, tsMs);

  // ---------- judging ----------

  /** Opens the item's point-fault alarm when its rules allow it (not while its device is down). */
  const raiseFault = (it: number, t: number, tsMs: number) => {
    const dev = items.device[it]!;
    if (items.fault[it] || items.faultAlarm[it] === 0 || dev.down || disabledItems.has(items.id[it]!)) return;
    const alarmPeriod = items.alarmPeriod[it]!;
    if (alarmPeriod > 0 && !inPeriod(periods.get(alarmPeriod) ?? [], new Date(tsMs))) return;
    const a = raise(it, dev, t, 'point_fault', monitorState.unknown, items.info[it]!);
    items.fault[it] = a;
    items.last[it] = a;
    reshow(it, tsMs);
  };

  /** A new confirmed state (after repetitions): the alarms it opens or closes. */
  const onConfirmed = (it: number, now: number, t: number, tsMs: number) => {
    const fault = items.fault[it];
    if (fault && now !== monitorState.unknown) {
      items.fault[it] = null;
      recover(fault, t, it);
      reshow(it, tsMs);
    }
    // Unknown: the point fault; a threshold alarm stays open, since its value is not known.
    if (now === monitorState.unknown) return raiseFault(it, t, tsMs);
    const alarm = items.alarm[it];
    if (isProblem(now) && !alarm) {
      if (disabledItems.has(items.id[it]!)) return;
      const alarmPeriod = items.alarmPeriod[it]!;
      if (alarmPeriod > 0 && !inPeriod(periods.get(alarmPeriod) ?? [], new Date(tsMs))) return;
      const raised = raise(it, items.device[it]!, t, 'threshold', now, '');
      items.alarm[it] = raised;
      items.last[it] = raised;
      reshow(it, tsMs);
    } else if (!isProblem(now) && alarm) {
      items.alarm[it] = null;
      recover(alarm, t, it);
      reshow(it, tsMs);
    }
  };

  /**
   * One check of one item: `value` NaN when it gave no usable value (`reason` why; `outage`: its
   * device did not answer at all). Runs for every sample: no allocation on the way of a value.
   */
  const judge = (itemId: number, value: number, tsMs: number, reason: string | undefined, outage: boolean) => {
    const it = items.slotOf(itemId);
    if (it === undefined) return deps.onUnknownItem(itemId);
    const good = !Number.isNaN(value);
    let judged: number = monitorState.unknown;
    if (!good) {
      show(it, monitorState.unknown, reason || 'no value', tsMs);
      // The device's outage, not the item's fault: its communication alarm tells it, and the item
      // waits for its next value when the device is back.
      items.outage[it] = outage ? 1 : 0;
      if (outage) return;
    } else {
      items.outage[it] = 0;
      judged = thresholdState(items.rule[it]!, value, items.raw[it]!);
    }
    const checkPeriod = items.checkPeriod[it]!;
    if (checkPeriod > 0 && !inPeriod(periods.get(checkPeriod) ?? [], new Date(tsMs))) {
      if (good) showValue(it, judged, tsMs);
      return;
    }
    const t = Math.floor(tsMs / 1000);
    if (good) {
      items.value[it] = value;
      items.hasValue[it] = 1;
      items.raw[it] = judged;
    }
    const { rep } = items;
    const prev = rep.confirmed[it]!;
    const changed = feedRepetition(rep, it, judged, items.repetitions[it]!);
    const now = rep.confirmed[it]!;
    const js = jitterSettings();
    if (js.enable) {
      const ev = feedJitter(items.jitter, it, now, t, js, changed && isProblem(prev) && !isProblem(now));
      if (items.jitter.jittering[it] === 1) jitteringItems.add(it);
      onJitter(it, ev, t);
    }
    // Shown before any alarm the sample raises (the live views hear the state first).
    if (good) showValue(it, judged, tsMs);
    const alarm = items.alarm[it];
    if (alarm && good) {
      alarm.value = value;
      alarm.last_check = t;
    }
    const fault = items.fault[it];
    if (fault && !good) fault.last_check = t;
    if (changed) onConfirmed(it, now, t, tsMs);
  };

  /**
   * A device answers again: an item unknown by the outage waits for its first value; one that is
   * still unreadable while its device answers is a point fault of its own.
   */
  const deviceBack = (dev: DeviceRuntime, tsMs: number) => {
    const t = Math.floor(tsMs / 1000);
    for (const slot of dev.items) {
      if (items.outage[slot] === 1) {
        items.outage[slot] = 0;
        show(slot, monitorState.notReady, '', tsMs);
      } else if (items.rep.confirmed[slot] === monitorState.unknown) raiseFault(slot, t, tsMs);
    }
  };

  /** After the tick re-judged an item's jitter: the jitter mark goes with jitter; an unknown item stays unknown. */
  const jitterJudged = (it: number, tsMs: number) => {
    if (items.shown[it] === monitorState.jitter) showValue(it, items.raw[it]!, tsMs);
  };

  return { judge, deviceBack, jitterJudged };
};
