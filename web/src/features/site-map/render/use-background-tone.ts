import { useEffect, useState } from 'react';
import { averageLuminance, parseColour, sceneBackdrop, type Tone, toneFor, toneOfColour } from './contrast.ts';

/** Side of the square the background is drawn into to be averaged: enough for a mean, cheap. */
const sample = 24;
/** Tone per image address: a picture's image never changes content (docs/site-map.md). */
const tones = new Map<string, Tone>();

/** Draws the image small and answers its tone; null when it cannot be read (not loaded, no canvas). */
const measure = (img: HTMLImageElement): Tone | null => {
  const canvas = document.createElement('canvas');
  canvas.width = sample;
  canvas.height = sample;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return null;
  try {
    ctx.drawImage(img, 0, 0, sample, sample);
    const l = averageLuminance(ctx.getImageData(0, 0, sample, sample).data, parseColour(sceneBackdrop)!);
    return l === null ? null : toneFor(l);
  } catch {
    // A tainted canvas (an image of another origin): the backdrop decides.
    return null;
  }
};

/**
 * The tone of label that reads on a picture: from the background image's mean luminance once it
 * has loaded, else (no image, or one that cannot be read) from the backdrop colour.
 */
export const useBackgroundTone = (url: string | undefined, backdrop = sceneBackdrop): Tone => {
  const fallback = toneOfColour(backdrop);
  const [tone, setTone] = useState<Tone>(() => (url && tones.get(url)) || fallback);
  useEffect(() => {
    if (!url) return setTone(fallback);
    const known = tones.get(url);
    if (known) return setTone(known);
    let live = true;
    const img = new Image();
    img.onload = () => {
      const measured = measure(img);
      if (measured) tones.set(url, measured);
      if (live) setTone(measured ?? fallback);
    };
    img.onerror = () => live && setTone(fallback);
    img.src = url;
    return () => {
      live = false;
    };
  }, [url, fallback]);
  return tone;
};
