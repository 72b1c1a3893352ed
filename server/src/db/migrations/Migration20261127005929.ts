import { Migration } from '@mikro-orm/migrations';

export class Migration20261127005929 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "campaign_settings" ("id" serial primary key, "company_id" int not null, "key" varchar(40) not null, "value" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "campaign_settings" add constraint "campaign_settings_company_id_key_unique" unique ("company_id", "key");`);

    this.addSql(`create table "campaigns" ("id" serial primary key, "company_id" int not null, "name" varchar(100) not null, "message1" text not null default '', "message2" text not null default '', "message3" text not null default '', "message4" text not null default '', "message5" text not null default '', "status" varchar(20) not null default 'INATIVA', "scheduled_at" timestamptz null, "started_at" timestamptz null, "completed_at" timestamptz null, "whatsapp_id" int null, "contact_list_id" int null, "tag_id" int null, "snapshot_list_id" int null, "file_list_id" int null, "media_path" varchar(200) null, "media_name" varchar(300) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "campaigns_company_id_id_index" on "campaigns" ("company_id", "id");`);
    this.addSql(`create index "campaigns_due" on "campaigns" ("scheduled_at") where "status" = 'PROGRAMADA';`);

    this.addSql(`create table "campaign_shipping" ("id" serial primary key, "company_id" int not null, "campaign_id" int not null, "contact_list_item_id" int null, "contact_id" int null, "whatsapp_id" int null, "number" varchar(50) not null, "name" varchar(100) not null, "variant" smallint not null default 0, "message" text not null, "status" varchar(10) not null default 'pending', "error" varchar(100) null, "planned_at" timestamptz null, "outbox_id" int null, "wid" varchar(100) null, "sent_at" timestamptz null, "delivered_at" timestamptz null, "read_at" timestamptz null, "replied_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "campaign_shipping_campaign_id_status_id_index" on "campaign_shipping" ("campaign_id", "status", "id");`);
    this.addSql(`create index "campaign_shipping_outbox_id_index" on "campaign_shipping" ("outbox_id");`);
    this.addSql(`create index "campaign_shipping_contact_list_item_id_index" on "campaign_shipping" ("contact_list_item_id");`);
    this.addSql(`create index "campaign_shipping_unreplied" on "campaign_shipping" ("contact_id", "whatsapp_id", "sent_at") where "status" = 'sent' and "replied_at" is null;`);
    this.addSql(`alter table "campaign_shipping" add constraint "campaign_shipping_campaign_id_number_unique" unique ("campaign_id", "number");`);

    this.addSql(`alter table "campaign_settings" add constraint "campaign_settings_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "campaigns" add constraint "campaigns_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "campaigns" add constraint "campaigns_whatsapp_id_foreign" foreign key ("whatsapp_id") references "whatsapps" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "campaigns" add constraint "campaigns_contact_list_id_foreign" foreign key ("contact_list_id") references "contact_lists" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "campaigns" add constraint "campaigns_tag_id_foreign" foreign key ("tag_id") references "tags" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "campaigns" add constraint "campaigns_snapshot_list_id_foreign" foreign key ("snapshot_list_id") references "contact_lists" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "campaigns" add constraint "campaigns_file_list_id_foreign" foreign key ("file_list_id") references "files" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "campaign_shipping" add constraint "campaign_shipping_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "campaign_shipping" add constraint "campaign_shipping_campaign_id_foreign" foreign key ("campaign_id") references "campaigns" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "campaign_shipping" add constraint "campaign_shipping_contact_list_item_id_foreign" foreign key ("contact_list_item_id") references "contact_list_items" ("id") on update cascade on delete set null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "campaign_shipping" drop constraint "campaign_shipping_campaign_id_foreign";`);

    this.addSql(`drop table if exists "campaign_settings" cascade;`);

    this.addSql(`drop table if exists "campaigns" cascade;`);

    this.addSql(`drop table if exists "campaign_shipping" cascade;`);
  }

}
