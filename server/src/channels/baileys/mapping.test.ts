import { createHash, randomBytes } from 'node:crypto';
import { ACCOUNT_RESTRICTED_TEXT, aesEncryptGCM, hmacSign, proto, type WACallEvent, type WAMessage } from '@whiskeysockets/baileys';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import type { InboundMessage, MessageUpdate } from '../types.js';
import {
  jidForPeer,
  peerFromJids,
  readPollVote,
  toCallEvent,
  toContactUpdate,
  toInboundMessage,
  toMessageUpdate,
  toReceiptUpdate,
  type BaileysMapped,
} from './mapping.js';

const CUSTOMER = '5511988887777';
const CUSTOMER_LID = '203948571234567';
const GROUP = '120363025246125888';
const T = 1_700_000_000;

type KeyFields = {
  remoteJid: string;
  id?: string;
  fromMe?: boolean;
  participant?: string;
  remoteJidAlt?: string;
  participantAlt?: string;
};

/**
 * A message as Baileys emits it: a proto WebMessageInfo, plus the alternative jids Baileys 7 adds to the
 * key after decoding (they are not proto fields, so fromObject would drop them).
 */
const wa = (key: KeyFields, message: Record<string, unknown> | null, extra: Record<string, unknown> = {}): WAMessage => {
  const { remoteJidAlt, participantAlt, ...protoKey } = key;
  const msg = proto.WebMessageInfo.fromObject({
    key: { id: 'MSG1', fromMe: false, ...protoKey },
    messageTimestamp: T,
    ...(message ? { message } : {}),
    ...extra,
  }) as WAMessage;
  if (remoteJidAlt) msg.key.remoteJidAlt = remoteJidAlt;
  if (participantAlt) msg.key.participantAlt = participantAlt;
  return msg;
};

const fromCustomer = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net` }, message, { pushName: 'Maria', ...extra });

const asMessage = (mapped: BaileysMapped | null): InboundMessage & { mediaDescriptor?: unknown } => {
  expect(mapped?.kind).toBe('message');
  const m = mapped as Extract<BaileysMapped, { kind: 'message' }>;
  return { ...m.message, mediaDescriptor: m.media };
};

const asUpdate = (mapped: BaileysMapped | null): MessageUpdate => {
  expect(mapped?.kind).toBe('update');
  return (mapped as Extract<BaileysMapped, { kind: 'update' }>).update;
};

describe('toInboundMessage: content types', () => {
  it('maps a plain text (conversation) with sender, id and timestamp', () => {
    const msg = fromCustomer({ conversation: 'Olá, preciso de ajuda' });
    const m = asMessage(toInboundMessage(msg));
    expect(m).toMatchObject({
      id: 'MSG1',
      fromMe: false,
      body: 'Olá, preciso de ajuda',
      mediaType: 'chat',
      chat: { number: CUSTOMER, lid: null, name: 'Maria' },
    });
    expect(m.timestamp.getTime()).toBe(T * 1000);
    expect(m.participant).toBeUndefined();
    expect(m.quotedId).toBeUndefined();
    expect(m.mediaDescriptor).toBeUndefined();
    expect(m.raw).toBe(msg);
  });

  it('maps an extended text and its quoted message id', () => {
    const m = asMessage(
      toInboundMessage(
        fromCustomer({
          extendedTextMessage: {
            text: 'this one',
            contextInfo: { stanzaId: 'ORIGINAL1', participant: `${CUSTOMER}@s.whatsapp.net`, quotedMessage: { conversation: 'old' } },
          },
        }),
      ),
    );
    expect(m.body).toBe('this one');
    expect(m.mediaType).toBe('chat');
    expect(m.quotedId).toBe('ORIGINAL1');
  });

  it('maps an image with its caption and describes the media to download', () => {
    const m = asMessage(
      toInboundMessage(fromCustomer({ imageMessage: { caption: 'the receipt', mimetype: 'image/jpeg', url: 'https://mmg.whatsapp.net/x' } })),
    );
    expect(m.body).toBe('the receipt');
    expect(m.mediaType).toBe('image');
    expect(m.mediaDescriptor).toEqual({ mimetype: 'image/jpeg' });
  });

  it('gives a media without caption an empty body', () => {
    const m = asMessage(toInboundMessage(fromCustomer({ imageMessage: { mimetype: 'image/png' } })));
    expect(m.body).toBe('');
    expect(m.mediaDescriptor).toEqual({ mimetype: 'image/png' });
  });

  it('maps a voice note (ptt) and an audio file as audio', () => {
    const voice = asMessage(toInboundMessage(fromCustomer({ audioMessage: { mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 4 } })));
    expect(voice.mediaType).toBe('audio');
    expect(voice.body).toBe('');
    expect(voice.mediaDescriptor).toEqual({ mimetype: 'audio/ogg; codecs=opus' });
    const file = asMessage(toInboundMessage(fromCustomer({ audioMessage: { mimetype: 'audio/mpeg', ptt: false } })));
    expect(file.mediaType).toBe('audio');
    expect(file.mediaDescriptor).toEqual({ mimetype: 'audio/mpeg' });
  });

  it('maps a video with caption', () => {
    const m = asMessage(toInboundMessage(fromCustomer({ videoMessage: { mimetype: 'video/mp4', caption: 'look' } })));
    expect(m).toMatchObject({ mediaType: 'video', body: 'look' });
    expect(m.mediaDescriptor).toEqual({ mimetype: 'video/mp4' });
  });

  it('maps a document by its MIME family, with file name', () => {
    const m = asMessage(
      toInboundMessage(fromCustomer({ documentMessage: { mimetype: 'application/pdf', fileName: 'invoice.pdf', title: 'invoice' } })),
    );
    expect(m.mediaType).toBe('application');
    expect(m.body).toBe('');
    expect(m.mediaDescriptor).toEqual({ mimetype: 'application/pdf', filename: 'invoice.pdf' });
  });

  it('maps a document with caption (documentWithCaptionMessage)', () => {
    const m = asMessage(
      toInboundMessage(
        fromCustomer({
          documentWithCaptionMessage: {
            message: { documentMessage: { mimetype: 'application/pdf', fileName: 'contract.pdf', caption: 'signed', contextInfo: { stanzaId: 'Q9' } } },
          },
        }),
      ),
    );
    expect(m).toMatchObject({ mediaType: 'application', body: 'signed', quotedId: 'Q9' });
    expect(m.mediaDescriptor).toEqual({ mimetype: 'application/pdf', filename: 'contract.pdf' });
  });

  it('maps a sticker', () => {
    const m = asMessage(toInboundMessage(fromCustomer({ stickerMessage: { mimetype: 'image/webp', isAnimated: false } })));
    expect(m).toMatchObject({ mediaType: 'sticker', body: '' });
    expect(m.mediaDescriptor).toEqual({ mimetype: 'image/webp' });
  });

  it('maps a location as thumbnail | maps link | name and address', () => {
    const thumb = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
    const m = asMessage(
      toInboundMessage(
        fromCustomer({
          locationMessage: { degreesLatitude: -23.5505, degreesLongitude: -46.6333, name: 'Sé', address: 'Praça da Sé | Centro', jpegThumbnail: thumb },
        }),
      ),
    );
    expect(m.mediaType).toBe('locationMessage');
    expect(m.mediaDescriptor).toBeUndefined();
    const [image, link, description, ...rest] = m.body.split('|');
    expect(rest).toEqual([]);
    expect(image).toBe(`data:image/jpeg;base64,${thumb.toString('base64')}`);
    expect(link).toBe('https://maps.google.com/maps?q=-23.5505%2C-46.6333&z=17');
    expect(description).toBe('Sé - Praça da Sé / Centro');
  });

  it('maps a location without thumbnail or name to an empty image and the coordinates', () => {
    const m = asMessage(toInboundMessage(fromCustomer({ locationMessage: { degreesLatitude: 1.5, degreesLongitude: 2.25 } })));
    expect(m.body).toBe('|https://maps.google.com/maps?q=1.5%2C2.25&z=17|1.5, 2.25');
  });

  it('maps a contact card and an array of contact cards to their vCards', () => {
    const vcard = 'BEGIN:VCARD\nVERSION:3.0\nFN:João\nTEL;type=CELL;waid=5511912345678:+55 11 91234-5678\nEND:VCARD';
    const other = 'BEGIN:VCARD\nVERSION:3.0\nFN:Ana\nTEL;waid=5511900000000:+55 11 90000-0000\nEND:VCARD';
    const one = asMessage(toInboundMessage(fromCustomer({ contactMessage: { displayName: 'João', vcard } })));
    expect(one).toMatchObject({ mediaType: 'contactMessage', body: vcard });
    const many = asMessage(
      toInboundMessage(
        fromCustomer({ contactsArrayMessage: { displayName: '2 contacts', contacts: [{ displayName: 'João', vcard }, { displayName: 'Ana', vcard: other }] } }),
      ),
    );
    expect(many).toMatchObject({ mediaType: 'vcard', body: `${vcard}\n${other}` });
  });

  it('unwraps ephemeral and view-once messages', () => {
    const ephemeral = asMessage(toInboundMessage(fromCustomer({ ephemeralMessage: { message: { extendedTextMessage: { text: 'disappearing' } } } })));
    expect(ephemeral).toMatchObject({ body: 'disappearing', mediaType: 'chat' });
    const viewOnce = asMessage(
      toInboundMessage(fromCustomer({ viewOnceMessageV2: { message: { imageMessage: { mimetype: 'image/jpeg', caption: 'once', viewOnce: true } } } })),
    );
    expect(viewOnce).toMatchObject({ body: 'once', mediaType: 'image' });
    expect(viewOnce.mediaDescriptor).toEqual({ mimetype: 'image/jpeg' });
  });

  it('keeps fromMe and does not take our own push name for the customer', () => {
    const m = asMessage(toInboundMessage(wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true }, { conversation: 'typed on the phone' }, { pushName: 'Atrium Support' })));
    expect(m.fromMe).toBe(true);
    expect(m.chat).toEqual({ number: CUSTOMER, lid: null });
  });
});

describe('toInboundMessage: identities', () => {
  it('reports a LID chat with the phone number from remoteJidAlt', () => {
    const m = asMessage(toInboundMessage(wa({ remoteJid: `${CUSTOMER_LID}@lid`, remoteJidAlt: `${CUSTOMER}@s.whatsapp.net` }, { conversation: 'hi' })));
    expect(m.chat).toMatchObject({ number: CUSTOMER, lid: CUSTOMER_LID });
  });

  it('reports a phone-number chat with the LID from remoteJidAlt', () => {
    const m = asMessage(toInboundMessage(wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, remoteJidAlt: `${CUSTOMER_LID}@lid` }, { conversation: 'hi' })));
    expect(m.chat).toMatchObject({ number: CUSTOMER, lid: CUSTOMER_LID });
  });

  it('reports a LID-only chat with no number', () => {
    const m = asMessage(toInboundMessage(wa({ remoteJid: `${CUSTOMER_LID}@lid` }, { conversation: 'hi' })));
    expect(m.chat).toMatchObject({ number: null, lid: CUSTOMER_LID });
  });

  it('strips the device part of a jid', () => {
    expect(peerFromJids(`${CUSTOMER}:12@s.whatsapp.net`, `${CUSTOMER_LID}:3@lid`)).toEqual({ number: CUSTOMER, lid: CUSTOMER_LID });
  });

  it('ignores our own account offered as the alternative jid of our own message', () => {
    const msg = wa({ remoteJid: `${CUSTOMER_LID}@lid`, remoteJidAlt: '5511900001111@s.whatsapp.net', fromMe: true }, { conversation: 'from the phone' });
    const m = asMessage(toInboundMessage(msg, { me: { number: '5511900001111', lid: '999' } }));
    expect(m.chat).toEqual({ number: null, lid: CUSTOMER_LID });
  });

  it('maps a group message: the group as chat, the sender as participant with both ids', () => {
    const msg = wa(
      { remoteJid: `${GROUP}@g.us`, participant: `${CUSTOMER_LID}@lid`, participantAlt: `${CUSTOMER}@s.whatsapp.net` },
      { conversation: 'hello group' },
      { pushName: 'Maria' },
    );
    const m = asMessage(toInboundMessage(msg, { groupName: (jid) => (jid === `${GROUP}@g.us` ? 'Clientes VIP' : undefined) }));
    expect(m.chat).toEqual({ number: GROUP, lid: null, isGroup: true, name: 'Clientes VIP' });
    expect(m.participant).toEqual({ number: CUSTOMER, lid: CUSTOMER_LID, name: 'Maria' });
  });

  it('leaves the group name out when the session does not know it', () => {
    const m = asMessage(toInboundMessage(wa({ remoteJid: `${GROUP}@g.us`, participant: `${CUSTOMER}@s.whatsapp.net` }, { conversation: 'x' })));
    expect(m.chat).toEqual({ number: GROUP, lid: null, isGroup: true });
    expect(m.participant).toEqual({ number: CUSTOMER, lid: null });
  });
});

describe('toInboundMessage: edits, revokes and dropped messages', () => {
  it('turns a MESSAGE_EDIT protocol message into an update of the original id', () => {
    const msg = fromCustomer({
      protocolMessage: {
        key: { remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: 'ORIGINAL1' },
        type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
        editedMessage: { conversation: 'corrected text' },
        timestampMs: T * 1000,
      },
    });
    expect(asUpdate(toInboundMessage(msg))).toEqual({ id: 'ORIGINAL1', fromMe: false, editedBody: 'corrected text', author: { chat: { number: CUSTOMER, lid: null }, fromMe: false } });
  });

  it('reads an edit inside an editedMessage wrapper (as WhatsApp sends it now)', () => {
    const msg = wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: 'EDIT2' }, {
      editedMessage: {
        message: {
          protocolMessage: {
            key: { remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: 'MINE1' },
            type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
            editedMessage: { extendedTextMessage: { text: 'new wording' } },
          },
        },
      },
    });
    expect(asUpdate(toInboundMessage(msg))).toEqual({ id: 'MINE1', fromMe: true, editedBody: 'new wording', author: { chat: { number: CUSTOMER, lid: null }, fromMe: true } });
  });

  it('turns a REVOKE protocol message into a deleted-for-everyone update', () => {
    const msg = fromCustomer({
      protocolMessage: { key: { remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: 'GONE1' }, type: proto.Message.ProtocolMessage.Type.REVOKE },
    });
    expect(asUpdate(toInboundMessage(msg))).toEqual({ id: 'GONE1', fromMe: false, revoked: true, author: { chat: { number: CUSTOMER, lid: null }, fromMe: false } });
  });

  it('names who sent an edit or a delete in a group: the chat and the participant', () => {
    const msg = wa({ remoteJid: `${GROUP}@g.us`, participant: `${CUSTOMER_LID}@lid`, participantAlt: `${CUSTOMER}@s.whatsapp.net` }, {
      protocolMessage: { key: { remoteJid: `${GROUP}@g.us`, fromMe: true, id: 'GONE2' }, type: proto.Message.ProtocolMessage.Type.REVOKE },
    });
    expect(asUpdate(toInboundMessage(msg)).author).toEqual({
      chat: { number: GROUP, lid: null, isGroup: true },
      fromMe: false,
      participant: { number: CUSTOMER, lid: CUSTOMER_LID },
    });
  });

  it('keeps a reaction as a message of its own, linked to the message reacted to; a reaction taken back is an update of that message', () => {
    const reaction = asMessage(
      toInboundMessage(fromCustomer({ reactionMessage: { key: { remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: 'OURS1' }, text: '👍' } })),
    );
    expect(reaction).toMatchObject({ body: '👍', mediaType: 'reactionMessage', quotedId: 'OURS1', fromMe: false });
    expect(
      asUpdate(toInboundMessage(fromCustomer({ reactionMessage: { key: { remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: 'OURS1' }, text: '' } }))),
    ).toEqual({ id: 'OURS1', reactionRemoved: { fromMe: false } });
    // In a group: whose reaction, by both of their addresses.
    const inGroup = wa(
      { remoteJid: '120363025246125888@g.us', participant: `${CUSTOMER_LID}@lid`, participantAlt: `${CUSTOMER}@s.whatsapp.net` },
      { reactionMessage: { key: { remoteJid: '120363025246125888@g.us', fromMe: true, id: 'OURS2' }, text: '' } },
    );
    expect(asUpdate(toInboundMessage(inGroup))).toEqual({
      id: 'OURS2',
      reactionRemoved: { fromMe: false, participant: { number: CUSTOMER, lid: CUSTOMER_LID } },
    });
  });

  it('shows a poll as its question and options; a vote it cannot read yet is a placeholder under the poll', () => {
    for (const type of ['pollCreationMessage', 'pollCreationMessageV3', 'pollCreationMessageV5']) {
      const poll = asMessage(
        toInboundMessage(fromCustomer({ [type]: { name: 'Melhor horário?', options: [{ optionName: 'Manhã' }, { optionName: 'Tarde' }], selectableOptionsCount: 1 } })),
      );
      expect(poll).toMatchObject({ body: '📊 Melhor horário?\n• Manhã\n• Tarde', mediaType: 'chat', fromMe: false });
    }
    const vote = fromCustomer({
      pollUpdateMessage: { pollCreationMessageKey: { remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: 'POLL1' }, vote: { encPayload: Buffer.from('x'), encIv: Buffer.from('y') } },
    });
    expect(asMessage(toInboundMessage(vote))).toMatchObject({ body: 'pollVote', mediaType: 'unavailable', quotedId: 'POLL1', fromMe: false });
  });

  it('reads a vote on our poll with the poll secret (WhatsApp encryption), by phone number or LID', () => {
    const secret = randomBytes(32);
    const poll = proto.Message.fromObject({
      pollCreationMessageV3: { name: 'Melhor horário?', options: [{ optionName: 'Manhã' }, { optionName: 'Tarde' }, { optionName: 'Noite' }], selectableOptionsCount: 0 },
      messageContextInfo: { messageSecret: secret },
    });
    const me = { number: '5511900001111', lid: '88001122334455' };
    // As WhatsApp encrypts it (the inverse of Baileys' decryptPollVote).
    const encryptVote = (chosen: string[], creator: string, voter: string) => {
      const sign = Buffer.concat([Buffer.from('POLL1'), Buffer.from(creator), Buffer.from(voter), Buffer.from('Poll Vote'), new Uint8Array([1])]);
      const key = hmacSign(sign, hmacSign(secret, new Uint8Array(32), 'sha256'), 'sha256');
      const iv = randomBytes(12);
      const plain = proto.Message.PollVoteMessage.encode({ selectedOptions: chosen.map((o) => createHash('sha256').update(o).digest()) }).finish();
      return { encPayload: aesEncryptGCM(plain, key, iv, Buffer.from(`POLL1\u0000${voter}`)), encIv: iv };
    };
    const voteFrom = (vote: { encPayload: Buffer; encIv: Buffer }, key: KeyFields = { remoteJid: `${CUSTOMER}@s.whatsapp.net` }) =>
      wa(key, { pollUpdateMessage: { pollCreationMessageKey: { remoteJid: key.remoteJid, fromMe: true, id: 'POLL1' }, vote } });

    expect(readPollVote(voteFrom(encryptVote(['Manhã', 'Noite'], `${me.number}@s.whatsapp.net`, `${CUSTOMER}@s.whatsapp.net`)), poll, me)).toBe('🗳️ Manhã, Noite');
    // A LID chat, our poll keyed by our LID.
    const byLid = voteFrom(encryptVote(['Tarde'], `${me.lid}@lid`, `${CUSTOMER_LID}@lid`), { remoteJid: `${CUSTOMER_LID}@lid` });
    expect(readPollVote(byLid, poll, me)).toBe('🗳️ Tarde');
    // A vote taken back chooses nothing.
    expect(readPollVote(voteFrom(encryptVote([], `${me.number}@s.whatsapp.net`, `${CUSTOMER}@s.whatsapp.net`)), poll, me)).toBe('🗳️ —');
    // Another poll's secret, or a vote someone else made for another voter, does not open.
    const other = proto.Message.fromObject({ ...poll.toJSON(), messageContextInfo: { messageSecret: randomBytes(32) } });
    expect(readPollVote(voteFrom(encryptVote(['Manhã'], `${me.number}@s.whatsapp.net`, `${CUSTOMER}@s.whatsapp.net`)), other, me)).toBeUndefined();
    expect(readPollVote(voteFrom(encryptVote(['Manhã'], `${me.number}@s.whatsapp.net`, '5511977776666@s.whatsapp.net')), poll, me)).toBeUndefined();
  });

  it('stores every type it cannot show as a placeholder naming its kind; housekeeping content is dropped', () => {
    // View-once: Baileys hands on an empty message whose key is flagged isViewOnce, with no stub.
    const viewOnce = wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'VO1' }, null, { pushName: 'Maria' });
    viewOnce.key.isViewOnce = true;
    expect(asMessage(toInboundMessage(viewOnce))).toMatchObject({ id: 'VO1', body: 'viewOnce', mediaType: 'unavailable', chat: { number: CUSTOMER, name: 'Maria' } });

    const kinds: [Record<string, unknown>, string][] = [
      [{ lottieStickerMessage: { message: { stickerMessage: { mimetype: 'application/was', isLottie: true } } } }, 'lottieSticker'],
      [{ eventMessage: { name: 'Inauguração', startTime: T + 3600 } }, 'event'],
      [{ interactiveMessage: { body: { text: 'Escolha' } } }, 'interactive'],
      [{ listMessage: { title: 'Menu', sections: [] } }, 'interactive'],
      [{ interactiveResponseMessage: { nativeFlowResponseMessage: { name: 'flow', paramsJson: '{}' } } }, 'interactive'],
      [{ orderMessage: { orderId: '1', itemCount: 2, orderTitle: 'Pedido' } }, 'order'],
      [{ productMessage: { product: { productId: 'p1', title: 'Caneca' } } }, 'product'],
      [{ groupInviteMessage: { groupJid: `${GROUP}@g.us`, inviteCode: 'abc', groupName: 'Clientes' } }, 'groupInvite'],
      [{ requestPaymentMessage: { currencyCodeIso4217: 'BRL' } }, 'payment'],
      // A type nobody described: named by its proto field.
      [{ stickerPackMessage: { name: 'pack' } }, 'stickerPackMessage'],
    ];
    for (const [content, kind] of kinds) {
      expect(asMessage(toInboundMessage(fromCustomer(content))), kind).toMatchObject({ body: kind, mediaType: 'unavailable', fromMe: false });
    }
    // A placeholder keeps the message it answers.
    const quoting = fromCustomer({ orderMessage: { orderId: '1', contextInfo: { stanzaId: 'OURS9' } } });
    expect(asMessage(toInboundMessage(quoting)).quotedId).toBe('OURS9');

    // Answers to buttons, lists and flows are the text the customer tapped.
    expect(asMessage(toInboundMessage(fromCustomer({ interactiveResponseMessage: { body: { text: 'Quero o plano B' } } })))).toMatchObject({ body: 'Quero o plano B', mediaType: 'chat' });
    expect(asMessage(toInboundMessage(fromCustomer({ listResponseMessage: { title: 'Suporte', singleSelectReply: { selectedRowId: 'r2' } } })))).toMatchObject({ body: 'Suporte', mediaType: 'chat' });
    expect(asMessage(toInboundMessage(fromCustomer({ buttonsResponseMessage: { selectedButtonId: 'b1', selectedDisplayText: 'Sim' } })))).toMatchObject({ body: 'Sim', mediaType: 'chat' });

    // Nothing a person reads: key distribution alone, a pin, keep-in-chat, an encrypted reaction.
    for (const content of [
      { senderKeyDistributionMessage: { groupId: `${GROUP}@g.us`, axolotlSenderKeyDistributionMessage: Buffer.from('k') } },
      { pinInChatMessage: { key: { remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'X' }, type: 1 } },
      { keepInChatMessage: { key: { remoteJid: `${CUSTOMER}@s.whatsapp.net`, id: 'X' } } },
      { encReactionMessage: { targetMessageKey: { id: 'X' }, encPayload: Buffer.from('x'), encIv: Buffer.from('y') } },
    ]) {
      expect(toInboundMessage(fromCustomer(content)), Object.keys(content)[0]).toBeNull();
    }
    // Our own phone's order or view-once is not the customer's message to answer.
    expect(toInboundMessage(wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true }, { orderMessage: { orderId: '1' } }))).toBeNull();
    const ownViewOnce = wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true }, null);
    ownViewOnce.key.isViewOnce = true;
    expect(toInboundMessage(ownViewOnce)).toBeNull();
  });

  it('drops status broadcasts, newsletters, other protocol messages and stubs other than an unreadable message', () => {
    expect(toInboundMessage(wa({ remoteJid: 'status@broadcast', participant: `${CUSTOMER}@s.whatsapp.net` }, { conversation: 'my status' }))).toBeNull();
    expect(toInboundMessage(wa({ remoteJid: '120363000000000000@newsletter' }, { conversation: 'news' }))).toBeNull();
    expect(
      toInboundMessage(fromCustomer({ protocolMessage: { type: proto.Message.ProtocolMessage.Type.EPHEMERAL_SETTING, ephemeralExpiration: 86400 } })),
    ).toBeNull();
    expect(toInboundMessage(wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net` }, null, { messageStubType: proto.WebMessageInfo.StubType.E2E_ENCRYPTED }))).toBeNull();
    // Our own message the phone sent, unreadable here: nothing for the agent to learn.
    expect(
      toInboundMessage(wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true }, null, { messageStubType: proto.WebMessageInfo.StubType.CIPHERTEXT })),
    ).toBeNull();
  });

  it("keeps a customer's message Baileys could not decrypt, or that came without content, as a placeholder", () => {
    for (const reason of ['Message absent from node', 'Bad MAC']) {
      const stub = wa({ remoteJid: `${CUSTOMER}@s.whatsapp.net` }, null, {
        messageStubType: proto.WebMessageInfo.StubType.CIPHERTEXT,
        messageStubParameters: [reason],
        pushName: 'Maria',
      });
      expect(asMessage(toInboundMessage(stub))).toMatchObject({ id: 'MSG1', fromMe: false, body: '', mediaType: 'unavailable', chat: { number: CUSTOMER, name: 'Maria' } });
    }
  });
});

describe('updates, receipts, contacts and calls', () => {
  const key = { remoteJid: `${CUSTOMER}@s.whatsapp.net`, fromMe: true, id: 'SENT1' };

  it('maps a status change to an ack', () => {
    // One step lower than WhatsApp's numbers: the spec's 1 sent, 2 received, 3 read, 4 played.
    expect(toMessageUpdate({ key, update: { status: proto.WebMessageInfo.Status.DELIVERY_ACK } })).toEqual({ id: 'SENT1', fromMe: true, ack: 2 });
    expect(toMessageUpdate({ key, update: { status: proto.WebMessageInfo.Status.SERVER_ACK } })).toEqual({ id: 'SENT1', fromMe: true, ack: 1 });
    expect(toMessageUpdate({ key, update: { status: proto.WebMessageInfo.Status.READ } })).toEqual({ id: 'SENT1', fromMe: true, ack: 3 });
    expect(toMessageUpdate({ key, update: { status: proto.WebMessageInfo.Status.PLAYED } })?.ack).toBe(4);
  });

  it('maps an error receipt for our message to its reason, never to an ack', () => {
    const error = proto.WebMessageInfo.Status.ERROR;
    expect(toMessageUpdate({ key, update: { status: error, messageStubParameters: ['479'] } })).toEqual({ id: 'SENT1', fromMe: true, sendError: 'ERR_WAPP_SEND_REFUSED' });
    expect(toMessageUpdate({ key, update: { status: error, messageStubParameters: ['463', ACCOUNT_RESTRICTED_TEXT] } })).toEqual({
      id: 'SENT1',
      fromMe: true,
      sendError: 'ERR_WAPP_ACCOUNT_RESTRICTED',
    });
    expect(toMessageUpdate({ key: { ...key, fromMe: false }, update: { status: error } })).toBeNull();
  });

  it('maps the edit and revoke updates Baileys derives from protocol messages', () => {
    const edit = toMessageUpdate({
      key: { ...key, fromMe: false, id: 'THEIRS1' },
      update: { message: proto.Message.fromObject({ editedMessage: { message: { conversation: 'edited' } } }) },
    });
    expect(edit).toEqual({ id: 'THEIRS1', fromMe: false, editedBody: 'edited', author: { chat: { number: CUSTOMER, lid: null }, fromMe: false } });
    const revoke = toMessageUpdate({ key: { ...key, id: 'THEIRS2' }, update: { message: null, messageStubType: proto.WebMessageInfo.StubType.REVOKE } });
    expect(revoke).toEqual({ id: 'THEIRS2', fromMe: true, revoked: true, author: { chat: { number: CUSTOMER, lid: null }, fromMe: true } });
  });

  it('ignores updates that carry none of these', () => {
    expect(toMessageUpdate({ key, update: { starred: true } })).toBeNull();
    expect(toMessageUpdate({ key: { ...key, remoteJid: 'status@broadcast' }, update: { status: 3 } })).toBeNull();
  });

  it('maps user receipts to delivered, read and played', () => {
    const receipt = (r: Record<string, unknown>) => toReceiptUpdate({ key, receipt: proto.UserReceipt.fromObject({ userJid: `${CUSTOMER}@s.whatsapp.net`, ...r }) });
    expect(receipt({ receiptTimestamp: T })).toEqual({ id: 'SENT1', fromMe: true, ack: 2 });
    expect(receipt({ receiptTimestamp: T, readTimestamp: T + 1 })?.ack).toBe(3);
    expect(receipt({ readTimestamp: T + 1, playedTimestamp: T + 2 })?.ack).toBe(4);
    expect(receipt({})).toBeNull();
  });

  it('maps contacts with both ids, a name and a picture', () => {
    expect(
      toContactUpdate({ id: `${CUSTOMER_LID}@lid`, phoneNumber: `${CUSTOMER}@s.whatsapp.net`, notify: 'Maria', imgUrl: 'https://pps.whatsapp.net/p.jpg' }),
    ).toEqual({ number: CUSTOMER, lid: CUSTOMER_LID, name: 'Maria', profilePicUrl: 'https://pps.whatsapp.net/p.jpg' });
    expect(toContactUpdate({ id: `${CUSTOMER}@s.whatsapp.net`, name: 'Maria Silva', notify: 'Maria' })).toEqual({ number: CUSTOMER, lid: null, name: 'Maria Silva' });
    expect(toContactUpdate({ id: `${CUSTOMER}@s.whatsapp.net`, lid: `${CUSTOMER_LID}@lid` })).toEqual({ number: CUSTOMER, lid: CUSTOMER_LID });
    expect(toContactUpdate({ id: `${CUSTOMER}@s.whatsapp.net`, imgUrl: 'changed' })).toBeNull();
    expect(toContactUpdate({ id: `${GROUP}@g.us`, name: 'Group' })).toBeNull();
  });

  it('maps calls, keeping the caller number', () => {
    const date = new Date(T * 1000);
    const call: WACallEvent = { chatId: `${CUSTOMER_LID}@lid`, from: `${CUSTOMER_LID}@lid`, callerPn: `${CUSTOMER}@s.whatsapp.net`, id: 'C1', date, status: 'offer', offline: false };
    expect(toCallEvent(call)).toEqual({ from: { number: CUSTOMER, lid: CUSTOMER_LID }, status: 'offer', at: date });
    expect(toCallEvent({ ...call, status: 'relaylatency' })).toBeNull();
  });
});

describe('jidForPeer', () => {
  it('writes to the phone number, else the LID, or the group', () => {
    expect(jidForPeer({ number: CUSTOMER, lid: CUSTOMER_LID })).toBe(`${CUSTOMER}@s.whatsapp.net`);
    expect(jidForPeer({ number: '+55 (11) 98888-7777', lid: null })).toBe(`${CUSTOMER}@s.whatsapp.net`);
    expect(jidForPeer({ number: null, lid: CUSTOMER_LID })).toBe(`${CUSTOMER_LID}@lid`);
    expect(jidForPeer({ number: GROUP, lid: null, isGroup: true })).toBe(`${GROUP}@g.us`);
    expect(() => jidForPeer({ number: null, lid: null })).toThrow(AppError);
  });
});
