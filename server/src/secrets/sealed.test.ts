import { describe, expect, it } from 'vitest';
import { createSealer, lastFour } from './sealed.js';

describe('sealed secrets', () => {
  const sealer = createSealer('x'.repeat(40));

  it('open what they sealed, and keep no plain text', () => {
    const sealed = sealer.seal('sk-live-1234567890', 'prompt.apiKey:7');
    expect(sealed).not.toContain('sk-live');
    expect(sealed).not.toBe(sealer.seal('sk-live-1234567890', 'prompt.apiKey:7'));
    expect(sealer.open(sealed, 'prompt.apiKey:7')).toBe('sk-live-1234567890');
  });

  it('do not open in another context, under another key, or once changed', () => {
    const sealed = sealer.seal('sk-live-1234567890', 'prompt.apiKey:7');
    expect(() => sealer.open(sealed, 'prompt.apiKey:8')).toThrow();
    expect(() => createSealer('y'.repeat(40)).open(sealed, 'prompt.apiKey:7')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('sk-live-0000000000').toString('base64url');
    expect(() => sealer.open(parts.join('.'), 'prompt.apiKey:7')).toThrow();
  });

  it('show the last four characters of a long secret only', () => {
    expect(lastFour('sk-live-1234567890')).toBe('7890');
    expect(lastFour('short')).toBe('');
  });
});
