import type { AlarmRow } from '@sitewatch/contract/alarms';
import { Empty, theme } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReducedMotion } from '../../../components/reduced-motion.ts';
import { fs } from './panel.tsx';

/** 000 §2.6: the list moves 0.3 px a frame and waits 2000 ms at each row. */
export const scrollStepPx = 0.3;
export const rowWaitMs = 2000;
/** Like the seamless-scroll list the spec's client uses: five rows or more move even when they fit. */
export const limitMoveNum = 5;

const statusKey = {
  abnormal: 'homeUi.alarmStatus.abnormal',
  unknown: 'homeUi.alarmStatus.unknown',
  recovered: 'homeUi.alarmStatus.recovered',
} as const;

/**
 * The recent alarms (10 rows) in a list that scrolls by itself (from five rows, or when they overflow): a step of 0.3 px
 * per frame, a 2-second wait at each row, a pause while the pointer is over it, and no motion for
 * users who asked the system for reduced motion (they scroll it themselves).
 */
export const AlarmScroller = ({ rows }: { rows: AlarmRow[] }) => {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const box = useRef<HTMLDivElement>(null);
  const track = useRef<HTMLDivElement>(null);
  const hover = useRef(false);
  // Where the list stands and until when it waits: kept across new rows, so a busy site's alarms
  // (each one new rows) do not send the list back to its top before it ever moves.
  const motion = useRef({ offset: 0, waitUntil: 0 });
  const still = useReducedMotion();
  const [overflow, setOverflow] = useState(false);

  // Whether the ten rows are taller than the box: only then is there anything to scroll.
  useEffect(() => {
    const b = box.current;
    const tr = track.current;
    if (!b || !tr) return;
    const measure = () => {
      const first = tr.firstElementChild as HTMLElement | null;
      const listHeight = first ? first.offsetHeight * rows.length : 0;
      setOverflow(listHeight > b.clientHeight + 1);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(b);
    return () => observer.disconnect();
  }, [rows.length]);

  const moving = !still && rows.length > 0 && (overflow || rows.length >= limitMoveNum);
  useEffect(() => {
    const tr = track.current;
    if (!tr || !moving) {
      if (tr) tr.style.transform = '';
      motion.current = { offset: 0, waitUntil: 0 };
      return;
    }
    const m = motion.current;
    if (m.offset === 0) m.waitUntil = performance.now() + rowWaitMs;
    let frame = 0;
    const step = (now: number) => {
      frame = requestAnimationFrame(step);
      if (hover.current || now < m.waitUntil) return;
      const first = tr.firstElementChild as HTMLElement | null;
      const rowHeight = first?.offsetHeight ?? 0;
      if (rowHeight <= 0) return;
      const before = Math.floor(m.offset / rowHeight);
      m.offset += scrollStepPx;
      // The list is drawn twice: past the first copy, start over where the second one stands.
      if (m.offset >= rowHeight * rows.length) m.offset %= rowHeight * rows.length;
      if (Math.floor(m.offset / rowHeight) !== before) {
        m.offset = Math.floor(m.offset / rowHeight) * rowHeight;
        m.waitUntil = now + rowWaitMs;
      }
      tr.style.transform = `translateY(${-m.offset}px)`;
      tr.dataset.offset = m.offset.toFixed(1);
    };
    frame = requestAnimationFrame(step);
    return () => cancelAnimationFrame(frame);
  }, [moving, rows]);

  if (rows.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('homeUi.noAlarms')} />;
  const copies = moving ? [0, 1] : [0];
  return (
    <div
      ref={box}
      data-testid="home-alarm-scroller"
      role="marquee"
      aria-label={t('homeUi.recent')}
      onMouseEnter={() => {
        hover.current = true;
      }}
      onMouseLeave={() => {
        hover.current = false;
      }}
      style={{ height: '100%', overflow: still ? 'auto' : 'hidden' }}
    >
      <div ref={track} data-testid="home-alarm-track" style={{ willChange: 'transform' }}>
        {copies.flatMap((copy) =>
          rows.map((a) => (
            <div
              key={`${copy}-${a.status_id}`}
              data-testid={copy === 0 ? 'home-alarm-row' : undefined}
              aria-hidden={copy === 1 ? true : undefined}
              style={{
                display: 'grid',
                gridTemplateColumns: 'minmax(0, 1.1fr) minmax(0, 1fr) minmax(0, 1.4fr) minmax(0, 1.6fr) auto',
                gap: 8,
                alignItems: 'center',
                padding: '6px 4px',
                borderBottom: `1px dashed ${token.colorBorderSecondary}`,
                fontSize: fs.body,
                color: token.colorText,
                lineHeight: 1.4,
              }}
            >
              <span style={{ color: token.colorTextSecondary, whiteSpace: 'nowrap' }}>
                {dayjs.unix(a.last_check).format('MM-DD HH:mm:ss')}
              </span>
              <span style={ellipsis} title={a.device_group_name}>
                {a.device_group_name}
              </span>
              <span style={ellipsis} title={`${a.device_name} / ${a.item_name}`}>
                {a.device_name} / {a.item_name}
              </span>
              <span style={ellipsis} title={a.info}>
                {a.info}
              </span>
              <span
                style={{
                  color: a.status_label === 'recovered' ? token.colorSuccess : a.color || token.colorError,
                  fontWeight: 600,
                  whiteSpace: 'nowrap',
                }}
              >
                {t(statusKey[a.status_label as keyof typeof statusKey] ?? statusKey.abnormal)}
              </span>
            </div>
          )),
        )}
      </div>
    </div>
  );
};

const ellipsis = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;
