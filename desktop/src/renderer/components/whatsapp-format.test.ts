import { describe, expect, it } from 'vitest';
import { parseWhatsApp, previewLine, stripWhatsApp } from './whatsapp-format';

describe('WhatsApp formatting', () => {
  it('reads bold, italic, strike and monospace, nested too', () => {
    expect(parseWhatsApp('*Admin:* Respondendo')).toEqual([{ kind: 'bold', children: ['Admin:'] }, ' Respondendo']);
    expect(parseWhatsApp('_oi_ ~não~ ```x = 1```')).toEqual([
      { kind: 'italic', children: ['oi'] },
      ' ',
      { kind: 'strike', children: ['não'] },
      ' ',
      { kind: 'mono', children: ['x = 1'] },
    ]);
    expect(parseWhatsApp('*_both_*')).toEqual([{ kind: 'bold', children: [{ kind: 'italic', children: ['both'] }] }]);
  });

  it('leaves markers that WhatsApp would not format', () => {
    expect(parseWhatsApp('2 * 3 * 4')).toEqual(['2 * 3 * 4']);
    expect(parseWhatsApp('snake_case_name')).toEqual(['snake_case_name']);
    expect(parseWhatsApp('* not bold *')).toEqual(['* not bold *']);
    expect(parseWhatsApp('*open\nclose*')).toEqual(['*open\nclose*']);
    expect(parseWhatsApp('**')).toEqual(['**']);
  });

  it('monospace keeps the markers inside as typed', () => {
    expect(parseWhatsApp('```*a*```')).toEqual([{ kind: 'mono', children: ['*a*'] }]);
  });

  it('strips the markers for plain text', () => {
    expect(stripWhatsApp('*[ 1 ]* - Segunda via')).toBe('[ 1 ] - Segunda via');
    expect(stripWhatsApp('*Admin:*\nRespondendo _agora_')).toBe('Admin:\nRespondendo agora');
  });

  it('a preview is one line', () => {
    expect(previewLine('*Admin:*\nRespondendo   já')).toBe('*Admin:* Respondendo já');
  });
});
