import { Migration } from '@mikro-orm/migrations';

export class Migration20261124104844 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "outbound_messages" ("id" serial primary key, "company_id" int not null, "whatsapp_id" int not null, "ticket_id" int null, "message_id" int null, "contact_id" int null, "to_number" varchar(50) null, "to_lid" varchar(50) null, "is_group" boolean not null default false, "chat_key" varchar(80) not null, "wid" varchar(100) not null, "body" text not null default '', "media_url" varchar(200) null, "media_name" varchar(300) null, "mimetype" varchar(100) null, "voice_note" boolean not null default false, "quoted_wid" varchar(200) null, "quoted_from_me" boolean not null default false, "presence" varchar(10) null, "presence_ms" int not null default 0, "presence_sent" boolean not null default false, "status" varchar(10) not null default 'pending', "attempts" int not null default 0, "planned_at" timestamptz not null, "last_error" varchar(200) null, "echoed_at" timestamptz null, "sent_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "outbound_messages_due" on "outbound_messages" ("whatsapp_id", "planned_at", "id") where "status" in ('pending', 'sending');`);
    this.addSql(`create index "outbound_messages_chat" on "outbound_messages" ("whatsapp_id", "chat_key", "id") where "status" in ('pending', 'sending');`);
    this.addSql(`create index "outbound_messages_message_id_index" on "outbound_messages" ("message_id");`);
    this.addSql(`alter table "outbound_messages" add constraint "outbound_messages_whatsapp_id_wid_unique" unique ("whatsapp_id", "wid");`);

    this.addSql(`alter table "outbound_messages" add constraint "outbound_messages_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "outbound_messages" add constraint "outbound_messages_whatsapp_id_foreign" foreign key ("whatsapp_id") references "whatsapps" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "outbound_messages" add constraint "outbound_messages_message_id_foreign" foreign key ("message_id") references "messages" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "sandbox_outbox" add column "deliveries" int not null default 1;`);
    this.addSql(`alter table "sandbox_outbox" add constraint "sandbox_outbox_whatsapp_id_wid_unique" unique ("whatsapp_id", "wid");`);

    this.addSql(`alter table "messages" add column "send_error" varchar(100) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "outbound_messages" cascade;`);

    this.addSql(`alter table "messages" drop column "send_error";`);

    this.addSql(`alter table "sandbox_outbox" drop constraint "sandbox_outbox_whatsapp_id_wid_unique";`);
    this.addSql(`alter table "sandbox_outbox" drop column "deliveries";`);
  }

}
