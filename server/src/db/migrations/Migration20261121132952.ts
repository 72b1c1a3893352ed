import { Migration } from '@mikro-orm/migrations';

export class Migration20261121132952 extends Migration {

  override async up(): Promise<void> {
    // Trigram indexes for contact and message search (a trusted extension: the database owner may create it).
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create table "contacts" ("id" serial primary key, "company_id" int not null, "name" varchar(200) not null, "number" varchar(50) null, "lid" varchar(50) null, "email" varchar(254) not null default '', "profile_pic_url" text not null default '', "is_group" boolean not null default false, "uuid" uuid not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "contacts" add constraint "contacts_uuid_unique" unique ("uuid");`);
    this.addSql(`create index "contacts_company_id_name_index" on "contacts" ("company_id", "name");`);
    this.addSql(`create index "contacts_name_trgm" on "contacts" using gin ("name" gin_trgm_ops);`);
    this.addSql(`create index "contacts_number_trgm" on "contacts" using gin ("number" gin_trgm_ops);`);
    this.addSql(`create unique index "contacts_company_number_unique" on "contacts" ("company_id", "number") where "number" is not null;`);
    this.addSql(`create unique index "contacts_company_lid_unique" on "contacts" ("company_id", "lid") where "lid" is not null;`);

    this.addSql(`create table "contact_custom_fields" ("id" serial primary key, "company_id" int not null, "contact_id" int not null, "name" varchar(100) not null, "value" text not null);`);
    this.addSql(`create index "contact_custom_fields_contact_id_index" on "contact_custom_fields" ("contact_id");`);

    this.addSql(`create table "queues" ("id" serial primary key, "company_id" int not null, "name" varchar(100) not null, "color" varchar(20) not null, "greeting_message" text not null default '', "out_of_hours_message" text not null default '', "order_queue" int null, "integration_id" int null, "prompt_id" int null, "schedules" jsonb not null default '[]', "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "queues" add constraint "queues_company_id_color_unique" unique ("company_id", "color");`);
    this.addSql(`alter table "queues" add constraint "queues_company_id_name_unique" unique ("company_id", "name");`);

    this.addSql(`create table "tags" ("id" serial primary key, "company_id" int not null, "name" varchar(100) not null, "color" varchar(20) not null default '#A4CCCC', "kanban" int not null default 0, "user_id" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "tags" add constraint "tags_company_id_name_unique" unique ("company_id", "name");`);

    this.addSql(`create table "quick_messages" ("id" serial primary key, "company_id" int not null, "user_id" int null, "shortcode" varchar(100) not null, "message" text not null, "geral" boolean not null default false, "status" boolean not null default true, "media_path" varchar(200) null, "media_name" varchar(300) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "quick_messages_company_id_shortcode_index" on "quick_messages" ("company_id", "shortcode");`);

    this.addSql(`create table "user_queues" ("user_id" int not null, "queue_id" int not null, "company_id" int not null, constraint "user_queues_pkey" primary key ("user_id", "queue_id"));`);
    this.addSql(`create index "user_queues_queue_id_index" on "user_queues" ("queue_id");`);

    this.addSql(`create table "whatsapps" ("id" serial primary key, "company_id" int not null, "name" varchar(100) not null, "status" varchar(20) not null default 'OPENING', "qrcode" text not null default '', "retries" int not null default 0, "is_default" boolean not null default false, "provider" varchar(20) not null default 'beta', "number" varchar(50) not null default '', "greeting_message" text not null default '', "complation_message" text not null default '', "out_of_hours_message" text not null default '', "rating_message" text not null default '', "expires_inactive_message" text not null default '', "expires_ticket" int not null default 0, "time_use_bot_queues" int not null default 0, "max_use_bot_queues" int not null default 3, "transfer_queue_id" int null, "time_to_transfer" int not null default 0, "integration_id" int null, "prompt_id" int null, "token_hash" varchar(128) null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "whatsapps" add constraint "whatsapps_company_id_name_unique" unique ("company_id", "name");`);

    this.addSql(`create table "tickets" ("id" serial primary key, "uuid" uuid not null, "company_id" int not null, "status" varchar(10) not null default 'pending', "contact_id" int not null, "whatsapp_id" int null, "user_id" int null, "queue_id" int null, "is_group" boolean not null default false, "chatbot" boolean not null default false, "last_message" text not null default '', "last_message_at" timestamptz null, "last_from_me" boolean not null default false, "unread_messages" int not null default 0, "use_integration" boolean not null default false, "integration_id" int null, "prompt_id" int null, "queue_option_id" int null, "bot_menu_count" int not null default 0, "awaiting_rating_since" timestamptz null, "rating_attempts" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`alter table "tickets" add constraint "tickets_uuid_unique" unique ("uuid");`);
    this.addSql(`create index "tickets_company_id_status_updated_at_index" on "tickets" ("company_id", "status", "updated_at");`);
    this.addSql(`create index "tickets_company_id_queue_id_status_updated_at_index" on "tickets" ("company_id", "queue_id", "status", "updated_at");`);
    this.addSql(`create index "tickets_company_id_user_id_status_updated_at_index" on "tickets" ("company_id", "user_id", "status", "updated_at");`);
    this.addSql(`create index "tickets_contact_id_index" on "tickets" ("contact_id");`);
    this.addSql(`create unique index "tickets_one_active_per_contact" on "tickets" ("contact_id", "whatsapp_id") where "status" in ('open', 'pending');`);

    this.addSql(`create table "user_ratings" ("id" serial primary key, "company_id" int not null, "ticket_id" int not null, "user_id" int null, "rate" int not null, "created_at" timestamptz not null);`);
    this.addSql(`create index "user_ratings_ticket_id_index" on "user_ratings" ("ticket_id");`);

    this.addSql(`create table "ticket_trackings" ("id" serial primary key, "company_id" int not null, "ticket_id" int not null, "whatsapp_id" int null, "user_id" int null, "queue_id" int null, "queued_at" timestamptz null, "started_at" timestamptz null, "finished_at" timestamptz null, "rating_at" timestamptz null, "rated" boolean not null default false, "created_at" timestamptz not null);`);
    this.addSql(`create index "ticket_trackings_company_id_created_at_index" on "ticket_trackings" ("company_id", "created_at");`);
    this.addSql(`create index "ticket_trackings_ticket_id_index" on "ticket_trackings" ("ticket_id");`);

    this.addSql(`create table "ticket_tags" ("ticket_id" int not null, "tag_id" int not null, "company_id" int not null, constraint "ticket_tags_pkey" primary key ("ticket_id", "tag_id"));`);
    this.addSql(`create index "ticket_tags_tag_id_index" on "ticket_tags" ("tag_id");`);

    this.addSql(`create table "ticket_notes" ("id" serial primary key, "company_id" int not null, "ticket_id" int not null, "contact_id" int not null, "user_id" int null, "note" text not null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "ticket_notes_ticket_id_index" on "ticket_notes" ("ticket_id");`);
    this.addSql(`create index "ticket_notes_contact_id_index" on "ticket_notes" ("contact_id");`);

    this.addSql(`create table "sandbox_outbox" ("id" serial primary key, "company_id" int not null, "whatsapp_id" int not null, "wid" varchar(100) not null, "to" varchar(50) not null, "body" text not null, "media_type" varchar(30) null, "media_name" varchar(300) null, "quoted_id" varchar(200) null, "deleted" boolean not null default false, "created_at" timestamptz not null);`);
    this.addSql(`create index "sandbox_outbox_whatsapp_id_id_index" on "sandbox_outbox" ("whatsapp_id", "id");`);

    this.addSql(`create table "messages" ("id" serial primary key, "company_id" int not null, "ticket_id" int not null, "wid" varchar(200) null, "contact_id" int null, "whatsapp_id" int null, "user_id" int null, "body" text not null default '', "from_me" boolean not null default false, "read" boolean not null default false, "ack" int not null default 0, "media_type" varchar(30) not null default 'chat', "media_url" varchar(200) null, "media_name" varchar(300) null, "quoted_msg_id" int null, "is_deleted" boolean not null default false, "is_edited" boolean not null default false, "is_system" boolean not null default false, "participant" varchar(100) null, "raw" jsonb null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`);
    this.addSql(`create index "messages_ticket_id_created_at_id_index" on "messages" ("ticket_id", "created_at", "id");`);
    this.addSql(`create index "messages_company_id_created_at_index" on "messages" ("company_id", "created_at");`);
    this.addSql(`create index "messages_body_trgm" on "messages" using gin ("body" gin_trgm_ops);`);
    this.addSql(`alter table "messages" add constraint "messages_whatsapp_id_wid_unique" unique ("whatsapp_id", "wid");`);

    this.addSql(`create table "inbound_queue" ("id" serial primary key, "company_id" int not null, "whatsapp_id" int not null, "wid" varchar(200) not null, "payload" jsonb not null, "attempts" int not null default 0, "last_error" varchar(500) null, "received_at" timestamptz not null);`);
    this.addSql(`alter table "inbound_queue" add constraint "inbound_queue_whatsapp_id_wid_unique" unique ("whatsapp_id", "wid");`);

    this.addSql(`create table "channel_auth_keys" ("whatsapp_id" int not null, "key" varchar(300) not null, "company_id" int not null, "value" jsonb not null, constraint "channel_auth_keys_pkey" primary key ("whatsapp_id", "key"));`);

    this.addSql(`create table "whatsapp_queues" ("whatsapp_id" int not null, "queue_id" int not null, "company_id" int not null, constraint "whatsapp_queues_pkey" primary key ("whatsapp_id", "queue_id"));`);
    this.addSql(`create index "whatsapp_queues_queue_id_index" on "whatsapp_queues" ("queue_id");`);

    this.addSql(`alter table "contacts" add constraint "contacts_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "contact_custom_fields" add constraint "contact_custom_fields_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "contact_custom_fields" add constraint "contact_custom_fields_contact_id_foreign" foreign key ("contact_id") references "contacts" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "queues" add constraint "queues_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "tags" add constraint "tags_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "tags" add constraint "tags_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "quick_messages" add constraint "quick_messages_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "quick_messages" add constraint "quick_messages_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "user_queues" add constraint "user_queues_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "user_queues" add constraint "user_queues_queue_id_foreign" foreign key ("queue_id") references "queues" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "user_queues" add constraint "user_queues_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "whatsapps" add constraint "whatsapps_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "whatsapps" add constraint "whatsapps_transfer_queue_id_foreign" foreign key ("transfer_queue_id") references "queues" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "tickets" add constraint "tickets_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "tickets" add constraint "tickets_contact_id_foreign" foreign key ("contact_id") references "contacts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "tickets" add constraint "tickets_whatsapp_id_foreign" foreign key ("whatsapp_id") references "whatsapps" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "tickets" add constraint "tickets_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "tickets" add constraint "tickets_queue_id_foreign" foreign key ("queue_id") references "queues" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "user_ratings" add constraint "user_ratings_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "user_ratings" add constraint "user_ratings_ticket_id_foreign" foreign key ("ticket_id") references "tickets" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "user_ratings" add constraint "user_ratings_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "ticket_trackings" add constraint "ticket_trackings_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ticket_trackings" add constraint "ticket_trackings_ticket_id_foreign" foreign key ("ticket_id") references "tickets" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ticket_trackings" add constraint "ticket_trackings_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "ticket_tags" add constraint "ticket_tags_ticket_id_foreign" foreign key ("ticket_id") references "tickets" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ticket_tags" add constraint "ticket_tags_tag_id_foreign" foreign key ("tag_id") references "tags" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ticket_tags" add constraint "ticket_tags_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "ticket_notes" add constraint "ticket_notes_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ticket_notes" add constraint "ticket_notes_ticket_id_foreign" foreign key ("ticket_id") references "tickets" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ticket_notes" add constraint "ticket_notes_contact_id_foreign" foreign key ("contact_id") references "contacts" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ticket_notes" add constraint "ticket_notes_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "sandbox_outbox" add constraint "sandbox_outbox_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "sandbox_outbox" add constraint "sandbox_outbox_whatsapp_id_foreign" foreign key ("whatsapp_id") references "whatsapps" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "messages" add constraint "messages_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "messages" add constraint "messages_ticket_id_foreign" foreign key ("ticket_id") references "tickets" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "messages" add constraint "messages_contact_id_foreign" foreign key ("contact_id") references "contacts" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "messages" add constraint "messages_whatsapp_id_foreign" foreign key ("whatsapp_id") references "whatsapps" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "messages" add constraint "messages_user_id_foreign" foreign key ("user_id") references "users" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "messages" add constraint "messages_quoted_msg_id_foreign" foreign key ("quoted_msg_id") references "messages" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "inbound_queue" add constraint "inbound_queue_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "inbound_queue" add constraint "inbound_queue_whatsapp_id_foreign" foreign key ("whatsapp_id") references "whatsapps" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "channel_auth_keys" add constraint "channel_auth_keys_whatsapp_id_foreign" foreign key ("whatsapp_id") references "whatsapps" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "channel_auth_keys" add constraint "channel_auth_keys_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "whatsapp_queues" add constraint "whatsapp_queues_whatsapp_id_foreign" foreign key ("whatsapp_id") references "whatsapps" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "whatsapp_queues" add constraint "whatsapp_queues_queue_id_foreign" foreign key ("queue_id") references "queues" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "whatsapp_queues" add constraint "whatsapp_queues_company_id_foreign" foreign key ("company_id") references "companies" ("id") on update cascade on delete cascade;`);

    this.addSql(`create unique index "companies_lower_name_unique" on "companies" (lower("name"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "contact_custom_fields" drop constraint "contact_custom_fields_contact_id_foreign";`);

    this.addSql(`alter table "tickets" drop constraint "tickets_contact_id_foreign";`);

    this.addSql(`alter table "ticket_notes" drop constraint "ticket_notes_contact_id_foreign";`);

    this.addSql(`alter table "messages" drop constraint "messages_contact_id_foreign";`);

    this.addSql(`alter table "user_queues" drop constraint "user_queues_queue_id_foreign";`);

    this.addSql(`alter table "whatsapps" drop constraint "whatsapps_transfer_queue_id_foreign";`);

    this.addSql(`alter table "tickets" drop constraint "tickets_queue_id_foreign";`);

    this.addSql(`alter table "whatsapp_queues" drop constraint "whatsapp_queues_queue_id_foreign";`);

    this.addSql(`alter table "ticket_tags" drop constraint "ticket_tags_tag_id_foreign";`);

    this.addSql(`alter table "tickets" drop constraint "tickets_whatsapp_id_foreign";`);

    this.addSql(`alter table "sandbox_outbox" drop constraint "sandbox_outbox_whatsapp_id_foreign";`);

    this.addSql(`alter table "messages" drop constraint "messages_whatsapp_id_foreign";`);

    this.addSql(`alter table "inbound_queue" drop constraint "inbound_queue_whatsapp_id_foreign";`);

    this.addSql(`alter table "channel_auth_keys" drop constraint "channel_auth_keys_whatsapp_id_foreign";`);

    this.addSql(`alter table "whatsapp_queues" drop constraint "whatsapp_queues_whatsapp_id_foreign";`);

    this.addSql(`alter table "user_ratings" drop constraint "user_ratings_ticket_id_foreign";`);

    this.addSql(`alter table "ticket_trackings" drop constraint "ticket_trackings_ticket_id_foreign";`);

    this.addSql(`alter table "ticket_tags" drop constraint "ticket_tags_ticket_id_foreign";`);

    this.addSql(`alter table "ticket_notes" drop constraint "ticket_notes_ticket_id_foreign";`);

    this.addSql(`alter table "messages" drop constraint "messages_ticket_id_foreign";`);

    this.addSql(`alter table "messages" drop constraint "messages_quoted_msg_id_foreign";`);

    this.addSql(`drop table if exists "contacts" cascade;`);

    this.addSql(`drop table if exists "contact_custom_fields" cascade;`);

    this.addSql(`drop table if exists "queues" cascade;`);

    this.addSql(`drop table if exists "tags" cascade;`);

    this.addSql(`drop table if exists "quick_messages" cascade;`);

    this.addSql(`drop table if exists "user_queues" cascade;`);

    this.addSql(`drop table if exists "whatsapps" cascade;`);

    this.addSql(`drop table if exists "tickets" cascade;`);

    this.addSql(`drop table if exists "user_ratings" cascade;`);

    this.addSql(`drop table if exists "ticket_trackings" cascade;`);

    this.addSql(`drop table if exists "ticket_tags" cascade;`);

    this.addSql(`drop table if exists "ticket_notes" cascade;`);

    this.addSql(`drop table if exists "sandbox_outbox" cascade;`);

    this.addSql(`drop table if exists "messages" cascade;`);

    this.addSql(`drop table if exists "inbound_queue" cascade;`);

    this.addSql(`drop table if exists "channel_auth_keys" cascade;`);

    this.addSql(`drop table if exists "whatsapp_queues" cascade;`);

    this.addSql(`drop index if exists "companies_lower_name_unique";`);
  }

}
