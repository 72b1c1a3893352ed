import { Migration } from '@mikro-orm/migrations';

export class Migration20261124132329 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "connection_leases" ("whatsapp_id" int not null, "owner" varchar(100) not null, "expires_at" timestamptz not null, constraint "connection_leases_pkey" primary key ("whatsapp_id"));`);
    this.addSql(`create index "connection_leases_expires_at_index" on "connection_leases" ("expires_at");`);

    this.addSql(`alter table "connection_leases" add constraint "connection_leases_whatsapp_id_foreign" foreign key ("whatsapp_id") references "whatsapps" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "connection_leases" cascade;`);
  }

}
