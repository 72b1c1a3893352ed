import { describe, expect, it } from 'vitest';
import { readOggOpus } from './ogg.js';
import { recordedWebm } from '../../testing/voice.js';
import { toVoiceNote } from './voice-note.js';

describe('voice notes', () => {
  it('turns the recorder’s WebM into a valid mono Ogg/Opus file of the same length', async () => {
    const webm = await recordedWebm(1.5);
    // A WebM (EBML) file, not Ogg: the reader refuses it.
    expect(webm.subarray(0, 4).toString('hex')).toBe('1a45dfa3');
    expect(() => readOggOpus(webm)).toThrow();

    const ogg = await toVoiceNote(webm);
    const info = readOggOpus(ogg);
    expect(info.channels).toBe(1);
    expect(info.pages).toBeGreaterThanOrEqual(3);
    expect(info.seconds).toBeGreaterThan(1.4);
    expect(info.seconds).toBeLessThan(1.6);
  });

  it('refuses what is not audio with ERR_UNSUPPORTED_MEDIA_TYPE', async () => {
    await expect(toVoiceNote(Buffer.from('not audio at all'))).rejects.toMatchObject({ code: 'ERR_UNSUPPORTED_MEDIA_TYPE' });
  });

  it('the Ogg reader catches a damaged page', async () => {
    const ogg = await toVoiceNote(await recordedWebm(0.5));
    const damaged = Buffer.from(ogg);
    damaged[damaged.length - 3] ^= 0xff;
    expect(() => readOggOpus(damaged)).toThrow(/bad CRC/);
  });
});
