import { Migration } from '@mikro-orm/migrations';

export class Migration20261121154058 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "invoices" ("id" serial primary key, "company_id" int not null, "detail" varchar(200) not null, "value" numeric(12,2) not null, "due_date" date not null, "status" varchar(10) not null default 'open', "paid_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "invoices" add constraint "invoices_company_id_due_date_unique" unique ("company_id", "due_date");`);

    this.addSql(`create table "payments" ("id" serial primary key, "company_id" int not null, "invoice_id" int not null, "provider" varchar(20) not null, "txid" varchar(64) not null, "value" numeric(12,2) not null, "status" varchar(12) not null default 'ATIVA', "qrcode" text not null default '', "paid_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "payments_invoice_id_index" on "payments" ("invoice_id");`);
    this.addSql(`alter table "payments" add constraint "payments_provider_txid_unique" unique ("provider", "txid");`);

    this.addSql(`create table "announcements" ("id" serial primary key, "company_id" int not null, "title" varchar(200) not null, "text" text not null, "priority" int not null default 3, "status" boolean not null default true, "media_path" varchar(300) null, "media_name" varchar(300) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);

    this.addSql(`create table "queue_options" ("id" serial primary key, "company_id" int not null, "queue_id" int not null, "parent_id" int null, "title" varchar(200) not null, "message" text not null default '', "option" varchar(10) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "queue_options_queue_id_parent_id_index" on "queue_options" ("queue_id", "parent_id");`);

    this.addSql(`create table "schedules" ("id" serial primary key, "company_id" int not null, "body" text not null, "send_at" timestamptz not null, "sent_at" timestamptz null, "contact_id" int not null, "ticket_id" int null, "user_id" int null, "whatsapp_id" int null, "status" varchar(20) not null default 'PENDENTE', "media_path" varchar(300) null, "media_name" varchar(300) null, "error" text null, "attempts" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "schedules_company_id_send_at_index" on "schedules" ("company_id", "send_at");`);
    this.addSql(`create index "schedules_status_send_at_index" on "schedules" ("status", "send_at");`);

    this.addSql(`alter table "invoices" add constraint "invoices_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "payments" add constraint "payments_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "payments" add constraint "payments_invoice_id_foreign" foreign key ("invoice_id") references "invoices" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "announcements" add constraint "announcements_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "queue_options" add constraint "queue_options_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "queue_options" add constraint "queue_options_queue_id_foreign" foreign key ("queue_id") references "queues" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "queue_options" add constraint "queue_options_parent_id_foreign" foreign key ("parent_id") references "queue_options" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "schedules" add constraint "schedules_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "schedules" add constraint "schedules_contact_id_foreign" foreign key ("contact_id") references "contacts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "schedules" add constraint "schedules_ticket_id_foreign" foreign key ("ticket_id") references "tickets" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "schedules" add constraint "schedules_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "schedules" add constraint "schedules_whatsapp_id_foreign" foreign key ("whatsapp_id") references "whatsapps" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "tickets" add column "bot_paused_until" timestamptz null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "payments" drop constraint "payments_invoice_id_foreign";`);

    this.addSql(`alter table "queue_options" drop constraint "queue_options_parent_id_foreign";`);

    this.addSql(`drop table if exists "invoices" cascade;`);

    this.addSql(`drop table if exists "payments" cascade;`);

    this.addSql(`drop table if exists "announcements" cascade;`);

    this.addSql(`drop table if exists "queue_options" cascade;`);

    this.addSql(`drop table if exists "schedules" cascade;`);

    this.addSql(`alter table "tickets" drop column "bot_paused_until";`);
  }

}
