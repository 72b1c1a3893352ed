import { EntitySchema, OptionalProps } from '@mikro-orm/core';
import { tenantFilter } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';

/** A company's bill for one period; one per (company, dueDate). Expired is derived, never stored. */
export class Invoice {
  [OptionalProps]?: 'status' | 'paidAt' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  detail!: string;
  /** BRL, two decimals (numeric(12,2), as the plan's value). */
  value!: number;
  /** The due date it pays (yyyy-mm-dd). */
  dueDate!: string;
  status: 'open' | 'paid' = 'open';
  paidAt: Date | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

export const InvoiceSchema = new EntitySchema<Invoice>({
  class: Invoice,
  tableName: 'invoices',
  filters: tenantFilter,
  uniques: [{ properties: ['companyId', 'dueDate'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    detail: { type: 'string', length: 200 },
    value: { type: 'double', columnType: 'numeric(12,2)', runtimeType: 'number' },
    dueDate: { type: 'date' },
    status: { type: 'string', length: 10, default: 'open' },
    paidAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});

/**
 * One charge issued through a payment provider for an invoice. `txid` is the provider's id: the webhook
 * finds the charge by it, and the pending → CONCLUIDA update happens once however often it is delivered.
 */
export class Payment {
  [OptionalProps]?: 'status' | 'paidAt' | 'qrcode' | 'createdAt' | 'updatedAt';
  id!: number;
  companyId!: number;
  invoiceId!: number;
  provider!: string;
  txid!: string;
  value!: number;
  /** ATIVA while waiting, CONCLUIDA once paid (the Pix API's own words). */
  status: 'ATIVA' | 'CONCLUIDA' = 'ATIVA';
  qrcode = '';
  paidAt: Date | null = null;
  createdAt = new Date();
  updatedAt = new Date();
}

export const PaymentSchema = new EntitySchema<Payment>({
  class: Payment,
  tableName: 'payments',
  filters: tenantFilter,
  uniques: [{ properties: ['provider', 'txid'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    companyId: { kind: 'm:1', entity: () => Company, mapToPk: true, fieldName: 'company_id', deleteRule: 'cascade' },
    invoiceId: { kind: 'm:1', entity: () => Invoice, mapToPk: true, fieldName: 'invoice_id', deleteRule: 'cascade', index: true },
    provider: { type: 'string', length: 20 },
    txid: { type: 'string', length: 64 },
    value: { type: 'double', columnType: 'numeric(12,2)', runtimeType: 'number' },
    status: { type: 'string', length: 12, default: 'ATIVA' },
    qrcode: { type: 'text', default: '' },
    paidAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date() },
    updatedAt: { type: 'datetime', columnType: 'timestamptz', onCreate: () => new Date(), onUpdate: () => new Date() },
  },
});
