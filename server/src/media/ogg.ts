/**
 * Reads an Ogg/Opus file (RFC 3533 pages, RFC 7845 Opus mapping): checks every page (capture pattern,
 * version, CRC) and the Opus headers, and answers what a voice note needs (channels, duration). Throws
 * on anything that is not one valid logical Ogg/Opus stream.
 */
export const OGG_OPUS_MIMETYPE = 'audio/ogg; codecs=opus';

export interface OggOpusInfo {
  channels: number;
  /** The sample rate of the audio before encoding (Opus itself always decodes at 48 kHz). */
  inputSampleRate: number;
  preSkip: number;
  pages: number;
  /** Playback length: the last granule position (48 kHz samples) less the pre-skip. */
  seconds: number;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i += 1) {
    let r = i << 24;
    for (let j = 0; j < 8; j += 1) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** Ogg's CRC-32 (polynomial 0x04c11db7, no reflection, initial 0), over the page with its CRC field zeroed. */
const oggCrc = (page: Buffer): number => {
  let crc = 0;
  for (let i = 0; i < page.length; i += 1) {
    const byte = i >= 22 && i < 26 ? 0 : page[i];
    crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) & 0xff) ^ byte]) >>> 0;
  }
  return crc;
};

export const readOggOpus = (data: Buffer): OggOpusInfo => {
  const packets: Buffer[] = [];
  let partial: Buffer[] = [];
  let offset = 0;
  let pages = 0;
  let serial: number | undefined;
  let lastGranule = 0n;
  let sawEnd = false;
  while (offset < data.length) {
    if (data.length - offset < 27 || data.toString('latin1', offset, offset + 4) !== 'OggS') throw new Error(`no Ogg page at byte ${offset}`);
    if (data[offset + 4] !== 0) throw new Error('unknown Ogg version');
    const flags = data[offset + 5];
    const granule = data.readBigInt64LE(offset + 6);
    const pageSerial = data.readUInt32LE(offset + 14);
    const segments = data[offset + 26];
    const headerLength = 27 + segments;
    if (data.length - offset < headerLength) throw new Error('truncated Ogg page header');
    const lacing = data.subarray(offset + 27, offset + headerLength);
    const bodyLength = lacing.reduce((sum, n) => sum + n, 0);
    const end = offset + headerLength + bodyLength;
    if (end > data.length) throw new Error('truncated Ogg page');
    const page = data.subarray(offset, end);
    if (oggCrc(page) !== page.readUInt32LE(22)) throw new Error(`bad CRC on Ogg page ${pages}`);
    if (pages === 0 && !(flags & 0x02)) throw new Error('first Ogg page is not a beginning of stream');
    if (serial === undefined) serial = pageSerial;
    else if (pageSerial !== serial) throw new Error('more than one logical stream');
    if (sawEnd) throw new Error('Ogg page after the end of stream');
    if (flags & 0x04) sawEnd = true;
    if (granule >= 0n) lastGranule = granule;
    // Packets: lacing values of 255 continue a packet; anything less ends it.
    let at = offset + headerLength;
    for (const n of lacing) {
      partial.push(data.subarray(at, at + n));
      at += n;
      if (n < 255) {
        packets.push(Buffer.concat(partial));
        partial = [];
      }
    }
    pages += 1;
    offset = end;
  }
  if (pages === 0) throw new Error('empty file');
  if (!sawEnd) throw new Error('no end-of-stream page');
  const head = packets[0];
  if (!head || head.length < 19 || head.toString('latin1', 0, 8) !== 'OpusHead') throw new Error('no OpusHead packet');
  if ((head[8] & 0xf0) !== 0) throw new Error('unsupported Opus header version');
  const tags = packets[1];
  if (!tags || tags.toString('latin1', 0, 8) !== 'OpusTags') throw new Error('no OpusTags packet');
  if (packets.length < 3) throw new Error('no audio packets');
  const channels = head[9];
  const preSkip = head.readUInt16LE(10);
  const inputSampleRate = head.readUInt32LE(12);
  const seconds = Math.max(0, Number(lastGranule) - preSkip) / 48_000;
  return { channels, inputSampleRate, preSkip, pages, seconds };
};
