/**
 * A Pix "copia e cola" code (the EMV BR Code the QR image encodes), as BACEN's manual lays it out:
 * ID + two-digit length + value fields, closed by a CRC16-CCITT checksum.
 */
const field = (id: string, value: string): string => `${id}${String(value.length).padStart(2, '0')}${value}`;

/** CRC16-CCITT (polynomial 0x1021, initial 0xFFFF), as four upper-case hex digits. */
export const crc16 = (payload: string): string => {
  let crc = 0xffff;
  for (const byte of Buffer.from(payload, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
};

/** Upper-case ASCII letters, digits and spaces only, cut to `max` (merchant name and city rules). */
const plain = (text: string, max: number): string =>
  text
    .normalize('NFD')
    .replace(/[^A-Za-z0-9 ]/g, '')
    .toUpperCase()
    .slice(0, max) || 'X';

export const pixCopyAndPaste = (input: { key: string; name: string; city: string; amount: number; reference: string }): string => {
  const payload =
    field('00', '01') +
    field('26', field('00', 'br.gov.bcb.pix') + field('01', input.key)) +
    field('52', '0000') +
    field('53', '986') +
    field('54', input.amount.toFixed(2)) +
    field('58', 'BR') +
    field('59', plain(input.name, 25)) +
    field('60', plain(input.city, 15)) +
    field('62', field('05', input.reference.replace(/[^A-Za-z0-9]/g, '').slice(0, 25) || '***')) +
    '6304';
  return payload + crc16(payload);
};
