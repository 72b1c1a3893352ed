import { Migration } from '@mikro-orm/migrations';

export class Migration20261124111554 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "messages" add column "chat_contact_id" int null;`);
    this.addSql(`alter table "messages" alter column "ticket_id" drop not null;`);
    this.addSql(`alter table "messages" add constraint "messages_chat_contact_id_foreign" foreign key ("chat_contact_id") references "contacts" ("id") on update cascade on delete cascade;`);
    this.addSql(`create index "messages_without_ticket" on "messages" ("chat_contact_id", "whatsapp_id", "created_at", "id") where "ticket_id" is null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "messages" drop constraint "messages_chat_contact_id_foreign";`);

    this.addSql(`drop index "messages_without_ticket";`);
    this.addSql(`alter table "messages" drop column "chat_contact_id";`);

    this.addSql(`alter table "messages" alter column "ticket_id" set not null;`);
  }

}
