/**
 * ISO-BMFF boxes out of ffmpeg's fragmented MP4 (`-movflags frag_keyframe+empty_moov+default_base_moof`):
 * `ftyp`+`moov` is the init segment, then `moof`+`mdat` pairs, each starting on a key frame. No
 * library: a box is a 32-bit size (1: a 64-bit size follows the type) and a 4-letter type.
 */
export type MediaPart = { kind: 'init'; data: Buffer; codecs: string } | { kind: 'fragment'; data: Buffer };

/** The MSE codec text of an init segment: `avc1.PPCCLL` from its avcC box, `hvc1` for H.265, `mp4a.40.2` for AAC. */
export const codecsOf = (init: Buffer): string => {
  const out: string[] = [];
  const avcC = init.indexOf('avcC', 0, 'latin1');
  if (avcC >= 0 && avcC + 8 <= init.length)
    out.push(
      `avc1.${init
        .subarray(avcC + 5, avcC + 8)
        .toString('hex')
        .toUpperCase()}`,
    );
  else if (init.indexOf('hvcC', 0, 'latin1') >= 0) out.push('hvc1');
  if (init.indexOf('mp4a', 0, 'latin1') >= 0) out.push('mp4a.40.2');
  return out.join(',');
};

/** Cuts a byte stream into init and fragments; `push` returns what became complete. */
export const createBoxReader = () => {
  let pending: Buffer = Buffer.alloc(0);
  let init: Buffer[] = [];
  let moof: Buffer | null = null;
  const boxes = function* () {
    while (pending.length >= 8) {
      let size = pending.readUInt32BE(0);
      const type = pending.toString('latin1', 4, 8);
      if (size === 1) {
        if (pending.length < 16) return;
        size = Number(pending.readBigUInt64BE(8));
      }
      if (size < 8) throw new Error(`bad box size ${size} (${type})`);
      if (pending.length < size) return;
      const box = pending.subarray(0, size);
      pending = pending.subarray(size);
      yield { type, box };
    }
  };
  return {
    push(chunk: Buffer): MediaPart[] {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      const parts: MediaPart[] = [];
      for (const { type, box } of boxes()) {
        if (type === 'ftyp') init = [box];
        else if (type === 'moov') {
          const data = Buffer.concat([...init, box]);
          init = [];
          parts.push({ kind: 'init', data, codecs: codecsOf(data) });
        } else if (type === 'moof') moof = box;
        else if (type === 'mdat' && moof) {
          parts.push({ kind: 'fragment', data: Buffer.concat([moof, box]) });
          moof = null;
        }
      }
      return parts;
    },
  };
};
