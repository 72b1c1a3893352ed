import { Migration } from '@mikro-orm/migrations';

export class Migration20261126231612 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "socket_io_attachments" ("id" bigserial primary key, "created_at" timestamptz not null default now(), "payload" bytea not null);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "socket_io_attachments" cascade;`);
  }

}
